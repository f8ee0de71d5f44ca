import { createWorker, OEM, PSM, type Page, type Worker } from 'tesseract.js';
import { createTraineddataLinks, locateTraineddata, SYSTEM_TESSDATA_DIRS, type TraineddataLocation } from './traineddata-location.ts';

export interface TesseractWorkersOptions {
  /** Language sets (`ara`, `deu+fra`) kept loaded at once; the least recently used idle one is ended beyond it. */
  maxLoaded: number;
  /** Extra tessdata folders searched after the npm packages. */
  systemDirs?: readonly string[];
  /** A language set unused for this long is ended (its memory given back); default `IDLE_MS`. */
  idleMs?: number;
}

/** Against 60 s, a 400-image mixed soak peaked 1 489 instead of 1 576 MB in the same time (docs/decisions.md). */
const IDLE_MS = 5_000;

interface Entry {
  worker: Promise<Worker>;
  busy: number;
  lastUsed: number;
  idle?: NodeJS.Timeout;
}

/**
 * tesseract.js workers, one per language set, created on first use and kept warm while used: a
 * model takes ~0.2 s to load and a worker holds 35–70 MB (a page read: ~120 MB more), so at most
 * `maxLoaded` sets stay alive, and a set idle for `idleMs` is ended. The OCR engine keeps one
 * instance for all its workers (`shared-tesseract.ts`); tesseract.js runs each worker in a thread
 * of its own and queues its `recognize` calls, one at a time.
 *
 * @example
 *   const workers = new TesseractWorkers({ maxLoaded: 3 });
 *   const page = await workers.recognizeLine(['ara'], pgmBytes);
 *   await workers.close();
 */
export class TesseractWorkers {
  readonly #options: TesseractWorkersOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #links = createTraineddataLinks();
  #tick = 0;
  #closed = false;

  constructor(options: TesseractWorkersOptions) {
    this.#options = options;
  }

  /** True when `<name>.traineddata` is installed. */
  has(name: string): boolean {
    return this.#locate(name) !== undefined;
  }

  /** Recognises one text line (page segmentation mode 7) with the given models loaded together. */
  async recognizeLine(traineddata: readonly string[], image: Uint8Array): Promise<Page> {
    return this.#recognize(traineddata, image, false);
  }

  /** Recognises a whole page with Tesseract's own layout analysis (page segmentation mode 3). */
  async recognizePage(traineddata: readonly string[], image: Uint8Array): Promise<Page> {
    return this.#recognize(traineddata, image, true);
  }

  async #recognize(traineddata: readonly string[], image: Uint8Array, page: boolean): Promise<Page> {
    if (this.#closed) throw new Error('Tesseract workers are closed.');
    const key = [...new Set(traineddata)].join('+');
    const entry = this.#entries.get(key) ?? this.#create(key);
    entry.busy += 1;
    entry.lastUsed = ++this.#tick;
    clearTimeout(entry.idle);
    try {
      const worker = await entry.worker;
      const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      // Calls on one worker run one after the other, so the mode set for a page is back before the next line.
      if (!page) return (await worker.recognize(bytes, {}, { text: false, blocks: true })).data;
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
      try {
        return (await worker.recognize(bytes, {}, { text: false, blocks: true })).data;
      } finally {
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE });
      }
    } finally {
      entry.busy -= 1;
      entry.lastUsed = ++this.#tick;
      if (entry.busy === 0 && page) this.#end(key, entry);
      else if (entry.busy === 0) this.#releaseWhenIdle(key, entry);
    }
  }

  /**
   * A whole page grows the worker's memory the most (a Fraktur page: ~120 MB more), and pages come
   * seldom: the worker is ended as soon as its page is read rather than `idleMs` later, so two
   * workers' pages overlap in memory only while both are being read (docs/decisions.md).
   */
  #end(key: string, entry: Entry): void {
    if (this.#entries.get(key) !== entry) return;
    this.#entries.delete(key);
    void entry.worker.then((w) => w.terminate()).catch(() => undefined);
  }

  /**
   * Each worker's WebAssembly memory only grows (~0.1–0.5 GB per language set): a set that is not
   * used for `idleMs` is ended, and the next image that needs it loads it again (~0.2 s).
   */
  #releaseWhenIdle(key: string, entry: Entry): void {
    entry.idle = setTimeout(() => {
      if (entry.busy === 0) this.#end(key, entry);
    }, this.#options.idleMs ?? IDLE_MS);
    entry.idle.unref();
  }

  /** Language sets currently loaded (for tests and metrics). */
  get loaded(): string[] {
    return [...this.#entries.keys()];
  }

  async close(): Promise<void> {
    this.#closed = true;
    const workers = [...this.#entries.values()].map((e) => {
      clearTimeout(e.idle);
      return e.worker;
    });
    this.#entries.clear();
    await Promise.all(workers.map(async (w) => (await w.catch(() => undefined))?.terminate()));
    await this.#links.remove();
  }

  #locate(name: string): TraineddataLocation | undefined {
    return locateTraineddata(name, this.#options.systemDirs ?? SYSTEM_TESSDATA_DIRS);
  }

  #create(key: string): Entry {
    const names = key.split('+');
    const locations = names.map((name) => {
      const location = this.#locate(name);
      if (location === undefined) throw new Error(`No ${name}.traineddata is installed.`);
      return location;
    });
    this.#evict();
    const worker = startWorker(names, locations, this.#links);
    const entry: Entry = { worker, busy: 0, lastUsed: ++this.#tick };
    this.#entries.set(key, entry);
    // A failed start must not stay cached: the next call retries.
    worker.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return entry;
  }

  #evict(): void {
    while (this.#entries.size >= this.#options.maxLoaded) {
      const idle = [...this.#entries.entries()].filter(([, e]) => e.busy === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
      if (idle.length === 0) return;
      const [key, entry] = idle[0];
      clearTimeout(entry.idle);
      this.#entries.delete(key);
      void entry.worker.then((w) => w.terminate()).catch(() => undefined);
    }
  }
}

async function startWorker(
  names: string[],
  locations: TraineddataLocation[],
  links: ReturnType<typeof createTraineddataLinks>,
): Promise<Worker> {
  // tesseract.js reads all of a worker's models from one folder: one model reads from its package,
  // several from a folder of links to theirs.
  const single = locations.length === 1 ? locations[0] : undefined;
  const langPath = single?.langPath ?? (await links.link(locations));
  // tesseract.js only resolves `createWorker` when start-up succeeds and reports a failed model
  // load or init to `errorHandler` alone (the promise would never settle): turn that into a rejection.
  let fail: (reason: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const created = createWorker(
    names,
    OEM.LSTM_ONLY,
    {
      langPath,
      gzip: single?.gzip ?? true,
      // Never read or write a cache folder, never fetch: models come from `langPath` only.
      cacheMethod: 'none',
      errorHandler: (error: unknown) => fail(new Error(`Tesseract (${names.join('+')}): ${String(error)}`)),
      // A Tesseract config file: model warnings ("failed to load ./ita.special-words") go nowhere, not to stderr.
    },
    'debug_file /dev/null',
  );
  const worker = await Promise.race([created, failed]);
  await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE });
  return worker;
}
