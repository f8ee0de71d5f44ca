import { workerData } from 'piscina';
import sharp from 'sharp';
import { loadEnglishLexicon } from '../words/english-lexicon.ts';
import { buildLayout } from '../layout/build-layout.ts';
import { loadModels } from '../models/models.ts';
import type { RecognizerPrecision } from '../models/recognizer-precision.ts';
import { OcrFailure } from './ocr-failure.ts';
import { runOcr, type OcrPipelineDeps } from '../ocr-pipeline.ts';
import type { OcrOptions, OcrOutcome } from '../ocr-types.ts';
import { createPaddleRecognizer } from '../recognize/recognize-text.ts';
import { createLanguageRouter } from '../recognize/route-recognizer.ts';
import { tesseractClient } from '../recognize/tesseract/shared-tesseract.ts';
import { TaskControl } from './task-control.ts';
import { warmUp } from './warm-up.ts';

/**
 * What the engine sends a worker: an image to read, or a request to load and warm up the models now.
 * `control` is the task's `TaskControl`, by which the engine stops it at its deadline.
 */
export type OcrTask = { control: SharedArrayBuffer } & (
  | { kind: 'ocr'; image: Uint8Array; options: OcrOptions; profile: boolean; ablate?: boolean }
  | { kind: 'warm' }
);

export interface OcrWorkerData {
  threads: number;
  recognizerPrecision?: RecognizerPrecision;
  modelCacheDir?: string;
  /** The broadcast channel of the engine's shared Tesseract workers (`serveTesseract`). */
  tesseractChannel: string;
}

// Decoded images are used once: libvips' operation cache would only hold on to memory.
sharp.cache(false);

/** The control of the task this worker is running (one at a time). */
let current: TaskControl | undefined;

/** Every onnxruntime call (loading, inference) goes through here: it runs inside a native section of the current task (`task-control.ts`). */
async function native<T>(run: () => Promise<T>): Promise<T> {
  const control = current;
  if (!control) return run();
  const stopped = () => new OcrFailure('TIMEOUT', 'Text recognition was stopped at its deadline.');
  if (!control.enterNative()) throw stopped();
  const outcome = await run().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!control.leaveNative()) throw stopped();
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/** This worker thread's models, loaded by the first task (so idle apps never pay for them). */
let deps: Promise<OcrPipelineDeps> | undefined;

function pipelineDeps(): Promise<OcrPipelineDeps> {
  const { threads, recognizerPrecision, modelCacheDir, tesseractChannel } = workerData as OcrWorkerData;
  deps ??= Promise.all([loadModels({ threads, recognizerPrecision, cacheDir: modelCacheDir, native }), loadEnglishLexicon()]).then(
    ([models, lexicon]) => ({
      models,
      // PP-OCR, plus Tesseract for hinted languages PP-OCR cannot read (the engine's, shared by its workers).
      recognizer: createLanguageRouter(createPaddleRecognizer(models), {
        tesseract: tesseractClient(tesseractChannel),
      }).recognizer,
      buildLayout,
      lexicon,
    }),
  );
  return deps;
}

/** The piscina entry: never throws, answers with a discriminated `OcrOutcome`. */
export default async function ocrWorker(task: OcrTask): Promise<OcrOutcome | null> {
  current = new TaskControl(task.control);
  try {
    // Loading creates the sessions: native too. A task stopped meanwhile leaves the load to the next.
    const ready = await native(pipelineDeps);
    if (task.kind === 'warm') {
      await warmUp(ready.models);
      return null;
    }
    const { result, timings, without } = await runOcr(task.image, ready, task.options, task.profile, task.ablate);
    return { ok: true, value: result, ...(timings ? { timings } : {}), ...(without ? { without } : {}) };
  } catch (err) {
    if (err instanceof OcrFailure) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
  }
}
