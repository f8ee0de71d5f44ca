import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
// Load sharp's native module in the main thread first: libvips must not be unloaded when a worker exits
// (https://github.com/lovell/sharp/issues/2263).
import 'sharp';
import type { OcrOptions, OcrOutcome } from './ocr-types.ts';
import type { OcrTask } from './ocr-worker.ts';

/**
 * The text-recognition engine used by the HTTP layer, the CLI and the benchmark: a pool of worker
 * threads, each holding its own ONNX sessions. Failures come back as `{ ok: false, code }` values,
 * never as thrown errors (class instances do not survive the thread boundary).
 *
 * @example
 *   const engine = createOcrEngine({ workers: 2, threads: 1, queueMax: 64 });
 *   const outcome = await engine.run(bytes, { mode: 'text', languageHints: [] });
 *   if (outcome.ok) console.log(outcome.value.text);
 *   await engine.close();
 */
export interface OcrEngine {
  run(image: Uint8Array, options: OcrOptions): Promise<OcrOutcome>;
  /** Images waiting for a free worker. */
  readonly queueSize: number;
  /** Resolves once every worker has started, loaded its models and run them once (`warm-up.ts`). */
  ready(): Promise<void>;
  /** True after `ready()` resolved: the models are loaded. */
  readonly isReady: boolean;
  close(): Promise<void>;
}

export interface OcrEngineOptions {
  /** Worker threads (each one loads the models once). */
  workers: number;
  /** onnxruntime intra-op threads per worker. */
  threads: number;
  /** Images allowed to wait for a worker; beyond it `run` answers `OVERLOADED`. */
  queueMax: number;
  /** Return per-stage timings (ms) with each result. */
  profile?: boolean;
  /** Where derived models (the int8 recognizer) are cached; none: built in memory by each worker. */
  modelCacheDir?: string;
}

const WORKER_URL = new URL('./ocr-worker.ts', import.meta.url);

/**
 * Workers are TypeScript: when the host process runs under tsx's `register()` API (the `legible`
 * bin) rather than `--import tsx`, `execArgv` does not carry the loader, so add it explicitly.
 */
function workerExecArgv(): string[] {
  const argv = process.execArgv;
  const hasTsx = argv.some((a, i) => a.includes('tsx') && (i === 0 || argv[i - 1] === '--import' || a.startsWith('--import=') || argv[i - 1] === '--loader'));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return hasTsx ? argv : [...argv, '--import', tsx];
}

export function createOcrEngine(opts: OcrEngineOptions): OcrEngine {
  const pool = new Piscina<OcrTask, OcrOutcome | null>({
    filename: WORKER_URL.href,
    // Workers start on the first task: the server sends `ready()` at start-up (OCR_WARM), tests and
    // the CLI do not, so they load the models only when they read an image.
    minThreads: 0,
    maxThreads: opts.workers,
    // Models take ~1 s to load: keep idle workers (and their sessions) alive.
    idleTimeout: 2 ** 31 - 1,
    workerData: { threads: opts.threads, modelCacheDir: opts.modelCacheDir },
    execArgv: workerExecArgv(),
  });
  let inFlight = 0;
  let isReady = false;
  let closed = false;

  async function run(image: Uint8Array, options: OcrOptions): Promise<OcrOutcome> {
    if (closed) return { ok: false, code: 'INTERNAL', message: 'The OCR engine is closed.' };
    if (inFlight >= opts.workers + opts.queueMax) {
      return { ok: false, code: 'OVERLOADED', message: 'Too many images are waiting for text recognition.' };
    }
    // Copy into a buffer we own and transfer it: no second copy, and the caller's bytes stay usable
    // (a Node Buffer often shares its ArrayBuffer with other buffers, which must not be detached).
    const bytes = new Uint8Array(image);
    inFlight += 1;
    try {
      const outcome = await pool.run(
        { kind: 'ocr', image: bytes, options, profile: opts.profile === true },
        { transferList: [bytes.buffer] },
      );
      return outcome ?? { ok: false, code: 'INTERNAL', message: 'The OCR worker returned nothing.' };
    } catch (err) {
      return { ok: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
    } finally {
      inFlight -= 1;
    }
  }

  async function ready(): Promise<void> {
    // One warm-up task per worker, sent together so the pool spawns them all.
    const outcomes = await Promise.all(Array.from({ length: opts.workers }, () => pool.run({ kind: 'warm' })));
    const failed = outcomes.find((o) => o !== null && !o.ok);
    if (failed && !failed.ok) throw new Error(`The OCR models could not be loaded: ${failed.message}`);
    isReady = true;
  }

  return {
    run,
    ready,
    get queueSize() {
      return pool.queueSize;
    },
    get isReady() {
      return isReady;
    },
    async close() {
      closed = true;
      await pool.destroy();
    },
  };
}
