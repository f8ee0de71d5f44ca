import type { OcrEngine } from '../ocr/engine/ocr-engine.ts';
import type { Metrics } from './metrics.ts';

/** The pipeline's timed stages (`runOcr`'s laps); its other timings are counts. */
const WORKER_STAGES = ['decode', 'detect', 'classify', 'recognize', 'fix text', 'layout'];
const FEATURE = { text: 'TEXT_DETECTION', document: 'DOCUMENT_TEXT_DETECTION' } as const;

/**
 * The same engine (its getters stay live through the prototype) with every image counted and timed,
 * whether it runs in a place of its own (`run`) or in one a request reserved (`reserve(n).run`):
 * images by feature and outcome, total time per image, queue wait, and the busy-worker and
 * models-ready gauges read at scrape time. Every route that reads images uses this engine.
 */
export function instrumentOcrEngine(engine: OcrEngine, metrics: Metrics, workers: number): OcrEngine {
  let inFlight = 0;
  metrics.observeOcrWorkers(() => ({ workers, busy: Math.max(0, Math.min(workers, inFlight - engine.queueSize)), ready: engine.isReady }));

  const measured =
    (run: OcrEngine['run']): OcrEngine['run'] =>
    async (...args) => {
      const feature = FEATURE[args[1].mode];
      const started = performance.now();
      inFlight++;
      try {
        const outcome = await run(...args);
        const seconds = (performance.now() - started) / 1000;
        metrics.ocrImageDuration.observe({ feature }, seconds);
        const outcomeLabel = !outcome.ok ? outcome.code.toLowerCase() : outcome.value.page.blocks.length === 0 ? 'no_text' : 'ok';
        metrics.ocrImages.inc({ feature, outcome: outcomeLabel });
        if (outcome.ok && outcome.timings) {
          // Time in the worker is the sum of its stages; the rest was spent waiting for one.
          const workerMs = WORKER_STAGES.reduce((sum, k) => sum + (outcome.timings![k] ?? 0), 0);
          metrics.ocrQueueWait.observe(Math.max(0, seconds - workerMs / 1000));
        }
        return outcome;
      } catch (err) {
        metrics.ocrImages.inc({ feature, outcome: 'internal' });
        throw err;
      } finally {
        inFlight--;
      }
    };

  return Object.create(engine, {
    run: { value: measured((...args) => engine.run(...args)) },
    reserve: {
      value: (count: number) => {
        const places = engine.reserve(count);
        return places && { run: measured((...args) => places.run(...args)), release: () => places.release() };
      },
    },
  });
}
