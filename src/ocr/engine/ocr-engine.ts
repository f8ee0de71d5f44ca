import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
// Load sharp's native module in the main thread first: libvips must not be unloaded when a worker exits
// (https://github.com/lovell/sharp/issues/2263).
import 'sharp';
import { headerPixels } from '../decode/image-header.ts';
import { recognizerPrecisionFor, type RecognizerPrecisionSetting } from '../models/recognizer-precision.ts';
import type { OcrOptions, OcrOutcome } from '../ocr-types.ts';
import { serveTesseract } from '../recognize/tesseract/shared-tesseract.ts';
import { TesseractWorkers } from '../recognize/tesseract/tesseract-workers.ts';
import type { OcrTask, OcrWorkerData } from './ocr-worker.ts';
import { TaskControl } from './task-control.ts';

/**
 * The text-recognition engine used by the HTTP layer, the CLI and the benchmark: a pool of worker
 * threads, each holding its own ONNX sessions. Failures come back as `{ ok: false, code }` values,
 * never as thrown errors (class instances do not survive the thread boundary).
 *
 * @example
 *   const engine = createOcrEngine({ workers: 2, threads: 1, queueMax: 64, imageTimeoutMs: 30_000 });
 *   const outcome = await engine.run(bytes, { mode: 'text', languageHints: [] });
 *   if (outcome.ok) console.log(outcome.value.text);
 *   await engine.close();
 */
export interface OcrEngine {
  /** One image in a place of its own: `OVERLOADED` when every place is taken. */
  run(image: Uint8Array, options: OcrOptions, runOptions?: OcrRunOptions): Promise<OcrOutcome>;
  /**
   * `count` places (a worker or the queue) for one request, all or none: `undefined` when they do
   * not all fit, so a request is refused whole and at once instead of after some of its images ran.
   */
  reserve(count: number): OcrReservation | undefined;
  /** Images waiting for a free worker. */
  readonly queueSize: number;
  /** Resolves once every worker has started, loaded its models and run them once (`warm-up.ts`). */
  ready(): Promise<void>;
  /** True after `ready()` resolved: the models are loaded. */
  readonly isReady: boolean;
  close(): Promise<void>;
}

export interface OcrRunOptions {
  /** This image's wall-clock limit, from when a worker takes it (default: the engine's `imageTimeoutMs`). */
  timeoutMs?: number;
}

export interface OcrReservation {
  /** Reads one image in one of the reserved places; `OVERLOADED` once they are used up. Its place is given back when it is done. */
  run(image: Uint8Array, options: OcrOptions, runOptions?: OcrRunOptions): Promise<OcrOutcome>;
  /** Gives back the places not used (call it when the request is done; repeated calls do nothing). */
  release(): void;
}

export interface OcrEngineOptions {
  /** Worker threads (each one loads the models once). */
  workers: number;
  /** onnxruntime intra-op threads per worker. */
  threads: number;
  /** `OCR_RECOGNIZER_PRECISION` (`recognizerPrecisionFor`); default `auto`. */
  recognizerPrecision?: RecognizerPrecisionSetting;
  /** Images allowed to wait for a worker; beyond it `run` answers `OVERLOADED`. */
  queueMax: number;
  /** Return per-stage timings (ms) with each result. */
  profile?: boolean;
  /**
   * Wall-clock limit per image, counted from when a worker takes it; past it the image answers
   * `TIMEOUT` at once and its worker is stopped (see `runInPlace`). The server sets it from `OCR_IMAGE_TIMEOUT_MS`.
   */
  imageTimeoutMs?: number;
  /** Also return each result with every text fix left out in turn (`bench:ocr --ablate`). */
  ablate?: boolean;
  /** Where derived models (the int8 recognizer) are cached; none: built in memory by each worker. */
  modelCacheDir?: string;
  /** Megapixels (from the images' headers) that may be decoding and running at once; default `PIXEL_BUDGET`. */
  pixelBudget?: number;
}

/**
 * Pixels in the workers at once. A decoded image costs ~3 bytes a pixel and its detection a few
 * hundred MB more at 75 MP, in each worker: two of those at once took a node from 0.8 to 2.4 GB
 * (`npm run bench:hostile`). Past the budget an image waits for the others to finish (one always
 * runs), so ordinary photos and pages (≤ 20 MP) share the workers as before.
 */
export const PIXEL_BUDGET = 40_000_000;

/** The CLI's and benchmarks' limit (the server's is `OCR_IMAGE_TIMEOUT_MS`). */
const DEFAULT_IMAGE_TIMEOUT_MS = 120_000;

/** Compiled (the container image runs `tsc`'s JavaScript, no tsx): the worker is `.js` beside this file. */
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_URL = new URL(COMPILED ? './ocr-worker.js' : './ocr-worker.ts', import.meta.url);

/**
 * Workers are TypeScript: when the host process runs under tsx's `register()` API (the `legible`
 * bin) rather than `--import tsx`, `execArgv` does not carry the loader, so add it explicitly.
 */
export function workerExecArgv(): string[] {
  const argv = process.execArgv;
  if (COMPILED) return argv;
  const hasTsx = argv.some(
    (a, i) => a.includes('tsx') && (i === 0 || argv[i - 1] === '--import' || a.startsWith('--import=') || argv[i - 1] === '--loader'),
  );
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return hasTsx ? argv : [...argv, '--import', tsx];
}

/** Tesseract language sets loaded at once per node (the least recently used idle one is ended beyond). */
const TESSERACT_SETS = 3;

export function createOcrEngine(opts: OcrEngineOptions): OcrEngine {
  // One set of Tesseract workers for all OCR workers (`shared-tesseract.ts`), on a channel of this engine's own;
  // a language set gets a second worker only while two OCR workers read pages with it at once.
  const tesseractChannel = `legible-tesseract-${randomUUID()}`;
  const tesseract = new TesseractWorkers({ maxLoaded: TESSERACT_SETS, maxPerSet: opts.workers });
  const tesseractService = serveTesseract(tesseractChannel, tesseract);
  const workerData: OcrWorkerData = {
    threads: opts.threads,
    recognizerPrecision: recognizerPrecisionFor(opts.recognizerPrecision ?? 'auto'),
    modelCacheDir: opts.modelCacheDir,
    tesseractChannel,
  };
  const pool = new Piscina<OcrTask, OcrOutcome | null>({
    filename: WORKER_URL.href,
    // Workers start on the first task: the server sends `ready()` at start-up (OCR_WARM), tests and
    // the CLI do not, so they load the models only when they read an image.
    minThreads: 0,
    maxThreads: opts.workers,
    // Models take ~1 s to load: keep idle workers (and their sessions) alive.
    idleTimeout: 2 ** 31 - 1,
    workerData,
    execArgv: workerExecArgv(),
  });
  /** Places taken: images running or waiting, and places reserved for images not sent yet. */
  let taken = 0;
  let running = 0;
  /** Images waiting for a worker, started in order; the pool's own queue stays empty. */
  const waiting: Array<{ pixels: number; start: () => void }> = [];
  let runningPixels = 0;
  const pixelBudget = opts.pixelBudget ?? PIXEL_BUDGET;
  let isReady = false;
  let closed = false;
  const capacity = opts.workers + opts.queueMax;

  function startNext(): void {
    while (running < opts.workers && waiting.length > 0) {
      if (running > 0 && runningPixels + waiting[0].pixels > pixelBudget) return;
      const next = waiting.shift()!;
      running += 1;
      runningPixels += next.pixels;
      next.start();
    }
  }

  /** Runs one image in a place already taken; the deadline starts when a worker is free for it. */
  async function runInPlace(image: Uint8Array, options: OcrOptions, runOptions: OcrRunOptions | undefined): Promise<OcrOutcome> {
    // Copy into a buffer we own and transfer it: no second copy, and the caller's bytes stay usable
    // (a Node Buffer often shares its ArrayBuffer with other buffers, which must not be detached).
    const bytes = new Uint8Array(image);
    const pixels = await headerPixels(bytes);
    await new Promise<void>((resolve) => {
      waiting.push({ pixels, start: resolve });
      startNext();
    });
    const timeoutMs = runOptions?.timeoutMs ?? opts.imageTimeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS;
    const timedOut: OcrOutcome = { ok: false, code: 'TIMEOUT', message: `Text recognition took longer than ${timeoutMs} ms.` };
    const control = new TaskControl();
    // At the deadline the caller is answered at once. The worker is terminated (piscina does so on
    // abort: the only way to stop a decoder that does not return, and its memory goes with it) unless
    // it is inside an onnxruntime run, which must not be interrupted (`task-control.ts`): then it
    // stops itself when the run returns. Its place is given back only when it is free.
    const terminate = new AbortController();
    let answerTimeout: (outcome: OcrOutcome) => void = () => {};
    const deadline = new Promise<OcrOutcome>((resolve) => {
      answerTimeout = resolve;
    });
    const timer = setTimeout(() => {
      if (control.stop() === 'now') terminate.abort();
      answerTimeout(timedOut);
    }, timeoutMs);
    const worked = pool
      .run(
        { control: control.buffer, kind: 'ocr', image: bytes, options, profile: opts.profile === true, ablate: opts.ablate === true },
        { transferList: [bytes.buffer], signal: terminate.signal },
      )
      .then(
        (outcome): OcrOutcome => outcome ?? { ok: false, code: 'INTERNAL', message: 'The OCR worker returned nothing.' },
        (err): OcrOutcome =>
          terminate.signal.aborted ? timedOut : { ok: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) },
      )
      .finally(() => {
        clearTimeout(timer);
        running -= 1;
        runningPixels -= pixels;
        taken -= 1;
        startNext();
      });
    return Promise.race([worked, deadline]);
  }

  const overloaded: OcrOutcome = { ok: false, code: 'OVERLOADED', message: 'Too many images are waiting for text recognition.' };
  const closedOutcome: OcrOutcome = { ok: false, code: 'INTERNAL', message: 'The OCR engine is closed.' };

  function reserve(count: number): OcrReservation | undefined {
    if (closed || taken + count > capacity) return undefined;
    taken += count;
    let held = count;
    return {
      run(image, options, runOptions) {
        if (closed) return Promise.resolve(closedOutcome);
        if (held === 0) return Promise.resolve(overloaded);
        held -= 1;
        return runInPlace(image, options, runOptions);
      },
      release() {
        taken -= held;
        held = 0;
      },
    };
  }

  async function run(image: Uint8Array, options: OcrOptions, runOptions?: OcrRunOptions): Promise<OcrOutcome> {
    if (closed) return closedOutcome;
    const place = reserve(1);
    if (!place) return overloaded;
    return place.run(image, options, runOptions);
  }

  async function ready(): Promise<void> {
    // One warm-up task per worker, sent together so the pool spawns them all.
    const outcomes = await Promise.all(
      Array.from({ length: opts.workers }, () => pool.run({ control: new TaskControl().buffer, kind: 'warm' })),
    );
    const failed = outcomes.find((o) => o !== null && !o.ok);
    if (failed && !failed.ok) throw new Error(`The OCR models could not be loaded: ${failed.message}`);
    isReady = true;
  }

  return {
    run,
    reserve,
    ready,
    get queueSize() {
      return waiting.length + pool.queueSize;
    },
    get isReady() {
      return isReady;
    },
    async close() {
      closed = true;
      await pool.destroy();
      tesseractService.close();
      await tesseract.close();
    },
  };
}
