import fs from 'node:fs/promises';
import { loadConfig } from '../../src/config.ts';
import { createOcrEngine } from '../../src/ocr/engine/ocr-engine.ts';
import { recognizerPrecisionFor } from '../../src/ocr/models/recognizer-precision.ts';
import type { OcrMode, OcrResult } from '../../src/ocr/ocr-types.ts';
import type { EngineImageResult, EngineRun } from './engine-run.ts';
import { mapLimit } from './map-limit.ts';
import type { OcrDevRecord } from './ocr-dev-manifest.ts';

/** Scenes are TEXT_DETECTION; pages, receipts, forms and printed lines DOCUMENT_TEXT_DETECTION. */
export function modeOf(r: OcrDevRecord): OcrMode {
  return r.kind === 'scene' || r.partial || r.lang === 'vi' ? 'text' : 'document';
}

/** The language the set says an image is in, passed as a hint as Tesseract gets `-l`. */
export function hintsOf(r: OcrDevRecord): string[] {
  return r.lang === 'en' || r.lang === 'mul' ? [] : [r.lang];
}

/**
 * Legible's engine configured as the server would be from this environment (by default 2 workers × 1
 * ORT thread, fp32; `OCR_WORKERS`, `OCR_THREADS` and `OCR_RECOGNIZER_PRECISION` change it), as many
 * images in flight as workers. Peak RSS is this process's (workers are threads in it), sampled every 20 ms.
 */
export async function runLegible(
  records: ReadonlyArray<OcrDevRecord & { file: string }>,
  profile: boolean,
  ablate = false,
  mode?: OcrMode,
): Promise<EngineRun> {
  const { ocr } = loadConfig(process.env);
  const engine = createOcrEngine({
    workers: ocr.workers,
    threads: ocr.threads,
    recognizerPrecision: ocr.recognizerPrecision,
    queueMax: ocr.queueMax,
    profile,
    ablate,
  });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const t0 = performance.now();
    await engine.ready();
    const startupMs = performance.now() - t0;
    const start = performance.now();
    const results = await mapLimit(records, ocr.workers, async (r): Promise<EngineImageResult> => {
      const bytes = await fs.readFile(r.file);
      const t = performance.now();
      const outcome = await engine.run(bytes, { mode: mode ?? modeOf(r), languageHints: hintsOf(r) });
      const latencyMs = performance.now() - t;
      process.stderr.write('.');
      if (!outcome.ok) return { id: r.id, text: '', words: [], latencyMs, error: `${outcome.code}: ${outcome.message}` };
      const without = outcome.without
        ? Object.fromEntries(Object.entries(outcome.without).map(([fix, result]) => [fix, { text: result.text, words: wordsOf(result) }]))
        : undefined;
      return {
        id: r.id,
        text: outcome.value.text,
        words: wordsOf(outcome.value),
        latencyMs,
        timings: outcome.timings,
        ...(without ? { without } : {}),
      };
    });
    const wallMs = performance.now() - start;
    peak = Math.max(peak, process.memoryUsage().rss);
    process.stderr.write('\n');
    return {
      engine: 'Legible',
      results,
      wallMs,
      peakRssBytes: peak,
      finalRssBytes: process.memoryUsage().rss,
      startupMs,
      recognizerPrecision: recognizerPrecisionFor(ocr.recognizerPrecision),
    };
  } finally {
    clearInterval(sampler);
    await engine.close();
  }
}

function wordsOf(result: OcrResult): EngineImageResult['words'] {
  return result.page.blocks.flatMap((b) =>
    b.paragraphs.flatMap((p) => p.words.map((w) => ({ text: w.text, polygon: w.box.map((pt) => [pt.x, pt.y] as const) }))),
  );
}
