import type { OcrEngine } from '../ocr/ocr-engine.ts';
import type { Metrics } from './metrics.ts';

const FEATURE = { text: 'TEXT_DETECTION', document: 'DOCUMENT_TEXT_DETECTION' } as const;

/**
 * The same engine (its getters stay live through the prototype) with `run` counted and timed:
 * images by feature and outcome, total time per image, queue wait, and the busy-worker and
 * models-ready gauges read at scrape time. Every route that reads images uses this engine.
 */
export function instrumentOcrEngine(engine: OcrEngine, metrics: Metrics, workers: number): OcrEngine {
  let inFlight = 0;
  metrics.observeOcrWorkers(() => ({ workers, busy: Math.max(0, Math.min(workers, inFlight - engine.queueSize)), ready: engine.isReady }));
  return Object.create(engine, {
    run: {
      value: async (...args: Parameters<OcrEngine['run']>) => {
        const feature = FEATURE[args[1].mode];
        const started = performance.now();
        inFlight++;
        try {
          const outcome = await engine.run(...args);
          const seconds = (performance.now() - started) / 1000;
          metrics.ocrImageDuration.observe({ feature }, seconds);
          const outcomeLabel = !outcome.ok ? outcome.code.toLowerCase() : outcome.value.page.blocks.length === 0 ? 'no_text' : 'ok';
          metrics.ocrImages.inc({ feature, outcome: outcomeLabel });
          if (outcome.ok && outcome.timings) {
            const workerMs = ['decode', 'detect', 'classify', 'recognize', 'layout'].reduce((sum, k) => sum + (outcome.timings![k] ?? 0), 0);
            metrics.ocrQueueWait.observe(Math.max(0, seconds - workerMs / 1000));
          }
          return outcome;
        } catch (err) {
          metrics.ocrImages.inc({ feature, outcome: 'internal' });
          throw err;
        } finally {
          inFlight--;
        }
      },
    },
  });
}
