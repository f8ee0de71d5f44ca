import { workerData } from 'piscina';
import sharp from 'sharp';
import { loadEnglishLexicon } from './english-lexicon.ts';
import { buildLayout } from './layout/build-layout.ts';
import { loadModels } from './models.ts';
import { OcrFailure } from './ocr-failure.ts';
import { runOcr, type OcrPipelineDeps } from './ocr-pipeline.ts';
import type { OcrOptions, OcrOutcome } from './ocr-types.ts';
import { createPaddleRecognizer } from './recognize-text.ts';
import { createLanguageRouter } from './route-recognizer.ts';
import { warmUp } from './warm-up.ts';

/** What the engine sends a worker: an image to read, or a request to load and warm up the models now. */
export type OcrTask = { kind: 'ocr'; image: Uint8Array; options: OcrOptions; profile: boolean; ablate?: boolean } | { kind: 'warm' };

export interface OcrWorkerData {
  threads: number;
  modelCacheDir?: string;
}

// Decoded images are used once: libvips' operation cache would only hold on to memory.
sharp.cache(false);

/** This worker thread's models, loaded by the first task (so idle apps never pay for them). */
let deps: Promise<OcrPipelineDeps> | undefined;

function pipelineDeps(): Promise<OcrPipelineDeps> {
  const { threads, modelCacheDir } = workerData as OcrWorkerData;
  deps ??= Promise.all([loadModels({ threads, cacheDir: modelCacheDir }), loadEnglishLexicon()]).then(([models, lexicon]) => ({
    models,
    // PP-OCR, plus Tesseract for hinted languages PP-OCR cannot read (models load on first use).
    recognizer: createLanguageRouter(createPaddleRecognizer(models.recognizer, models.dictionary)).recognizer,
    buildLayout,
    lexicon,
  }));
  return deps;
}

/** The piscina entry: never throws, answers with a discriminated `OcrOutcome`. */
export default async function ocrWorker(task: OcrTask): Promise<OcrOutcome | null> {
  try {
    const ready = await pipelineDeps();
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
