import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { createOcrEngine, type OcrEngine, type OcrReservation } from './ocr-engine.ts';
import type { OcrOutcome } from '../ocr-types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The text-recognition engine (a pool of worker threads); see `src/ocr/engine/ocr-engine.ts`. */
    ocr: OcrEngine;
  }
}

export interface OcrPluginOptions {
  ocr: Pick<Config['ocr'], 'workers' | 'threads' | 'queueMax'> & Partial<Pick<Config['ocr'], 'imageTimeoutMs' | 'recognizerPrecision'>>;
  /** Where derived models (the int8 recognizer) are cached: `DATA_DIR/models`. */
  modelCacheDir?: string;
  /** Receives each image's per-stage timings in ms (`/metrics` stage histogram); turns profiling on. */
  onStageTimings?: (timings: Record<string, number>) => void;
}

/**
 * Decorates `app.ocr` with an engine sized from `config.ocr` and destroys its worker pool when the
 * app closes. Workers start with the first image or `app.ocr.ready()` (`main.ts` calls it at start-up
 * unless `OCR_WARM=false`).
 */
export const ocrPlugin = fp<OcrPluginOptions>(
  async (app, { ocr, onStageTimings, modelCacheDir }) => {
    const engine = createOcrEngine({
      workers: ocr.workers,
      threads: ocr.threads,
      recognizerPrecision: ocr.recognizerPrecision,
      queueMax: ocr.queueMax,
      imageTimeoutMs: ocr.imageTimeoutMs,
      profile: onStageTimings !== undefined,
      modelCacheDir,
    });
    // Same engine (its getters stay live through the prototype), with every run reporting stage timings.
    const report = (outcome: OcrOutcome): OcrOutcome => {
      if (outcome.ok && outcome.timings) onStageTimings?.(outcome.timings);
      return outcome;
    };
    const observed: OcrEngine = onStageTimings
      ? Object.create(engine, {
          run: { value: async (...args: Parameters<OcrEngine['run']>) => report(await engine.run(...args)) },
          reserve: {
            value: (count: number): OcrReservation | undefined => {
              const places = engine.reserve(count);
              return (
                places && {
                  run: async (...args: Parameters<OcrReservation['run']>) => report(await places.run(...args)),
                  release: () => places.release(),
                }
              );
            },
          },
        })
      : engine;
    app.decorate('ocr', observed);
    app.addHook('onClose', async () => engine.close());
  },
  { name: 'legible-ocr', fastify: '5.x' },
);
