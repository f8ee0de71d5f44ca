import { Piscina } from 'piscina';
// TypeScript workers need tsx's loader when the host did not pass it (the OCR engine's rule).
import { workerExecArgv } from '../../ocr/engine/ocr-engine.ts';
import type { DocumentTask } from './document-worker.ts';
import { fileFailure, type FileLimits, type FileMimeType, type PagesOutcome } from './file-pages.ts';

/**
 * Turns PDF / TIFF / GIF files into page images, in a small pool of worker threads of its own: a
 * hostile file costs a bounded heap (`resourceLimits`; the thread dies, not the server) and a
 * bounded time (the task is aborted and its thread replaced), and rendering never blocks the event loop.
 */
export interface DocumentRenderer {
  pages(
    mimeType: FileMimeType,
    bytes: Uint8Array,
    pages: number[] | undefined,
    defaultCount: number,
    fileKey?: string,
  ): Promise<PagesOutcome>;
  close(): Promise<void>;
}

export interface DocumentRendererOptions {
  limits: FileLimits;
  /** Worker threads rendering files. */
  workers: number;
  /** Time for one task (one file, up to a handful of pages) before its thread is terminated. */
  timeoutMs: number;
  /** Heap of one document worker (MB). */
  maxHeapMb: number;
}

/** Compiled (the container image runs `tsc`'s JavaScript): the worker is `.js` beside this file. */
const WORKER_URL = new URL(import.meta.url.endsWith('.js') ? './document-worker.js' : './document-worker.ts', import.meta.url);

export function createDocumentRenderer(opts: DocumentRendererOptions): DocumentRenderer {
  const pool = new Piscina<DocumentTask, PagesOutcome>({
    filename: WORKER_URL.href,
    minThreads: 0,
    maxThreads: opts.workers,
    // PDF.js takes ~1 s to load in a fresh thread: keep an idle one for a while.
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    execArgv: workerExecArgv(),
  });

  // Tasks wait here, not in piscina's queue, so that a task's time limit starts when a worker takes it.
  let running = 0;
  const waiting: Array<() => void> = [];
  const acquire = async () => {
    if (running >= opts.workers) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
  };
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };

  async function pages(
    mimeType: FileMimeType,
    bytes: Uint8Array,
    requested: number[] | undefined,
    defaultCount: number,
    fileKey?: string,
  ): Promise<PagesOutcome> {
    await acquire();
    const signal = AbortSignal.timeout(opts.timeoutMs);
    try {
      const copy = new Uint8Array(bytes);
      return await pool.run(
        { mimeType, bytes: copy, pages: requested, defaultCount, limits: opts.limits, fileKey },
        { signal, transferList: [copy.buffer] },
      );
    } catch (err) {
      if (signal.aborted)
        return fileFailure(
          'DEADLINE_EXCEEDED',
          `Reading the file took longer than ${opts.timeoutMs} ms (FILE_RENDER_TIMEOUT_MS); it was stopped.`,
        );
      const code = (err as { code?: string })?.code;
      if (code === 'ERR_WORKER_OUT_OF_MEMORY')
        return fileFailure('RESOURCE_EXHAUSTED', 'Reading the file needed more memory than allowed; it was stopped.');
      return fileFailure('INTERNAL', 'The file could not be read.');
    } finally {
      release();
    }
  }

  return { pages, close: () => pool.destroy() };
}
