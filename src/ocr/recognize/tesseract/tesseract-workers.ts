import { createWorker, OEM, PSM, type Page, type Worker } from 'tesseract.js';
import { createTraineddataLinks, locateTraineddata, SYSTEM_TESSDATA_DIRS, type TraineddataLocation } from './traineddata-location.ts';

export interface TesseractWorkersOptions {
  /** Language sets (`ara`, `deu+fra`) kept loaded at once; the least recently used idle one is ended beyond it. */
  maxLoaded: number;
  /** Workers one language set may have at once, for pages read at the same time (default 1). */
  maxPerSet?: number;
  /** Extra tessdata folders searched after the npm packages. */
  systemDirs?: readonly string[];
  /** A language set unused for this long is ended (its memory given back); default `IDLE_MS`. */
  idleMs?: number;
}

/** Against 60 s, a 400-image mixed soak peaked 1 489 instead of 1 576 MB in the same time (docs/decisions.md). */
const IDLE_MS = 5_000;

interface Instance {
  worker: Promise<Worker>;
  /** Calls queued or running on it. */
  busy: number;
  /** How many of those are whole pages (seconds each, where a line takes milliseconds). */
  pages: number;
  /** The call before the next one: a call's steps (set the mode, read, set it back) must not interleave with another caller's. */
  turn: Promise<unknown>;
  /** It has read a whole page since it started: its memory has grown. */
  grown?: boolean;
}

interface LanguageSet {
  /** Where each of the set's models is, found when the set was first asked for. */
  locations: TraineddataLocation[];
  instances: Instance[];
  lastUsed: number;
  idle?: NodeJS.Timeout;
}

/** Tesseract's `thresholding_method`: Otsu over the whole image (its default), or per tile (Leptonica's). */
const GLOBAL_OTSU = '0';
const TILED_OTSU = '1';

const busyOf = (set: LanguageSet) => set.instances.reduce((n, i) => n + i.busy, 0);
const terminate = (instance: Instance) => void instance.worker.then((w) => w.terminate()).catch(() => undefined);

/**
 * tesseract.js workers per language set, created on first use and kept warm while used: a model
 * takes ~0.2 s to load and a worker holds 35–70 MB (a page read: ~120 MB more), so at most
 * `maxLoaded` sets stay alive, a set idle for `idleMs` is ended, and a set has a second worker only
 * when pages are read at once. The OCR engine keeps one `TesseractWorkers` for all its
 * workers (`shared-tesseract.ts`); tesseract.js runs each worker in a thread of its own and queues
 * its `recognize` calls, one at a time.
 *
 * @example
 *   const workers = new TesseractWorkers({ maxLoaded: 3 });
 *   const page = await workers.recognizeLine(['ara'], pgmBytes);
 *   await workers.close();
 */
export class TesseractWorkers {
  readonly #options: TesseractWorkersOptions;
  readonly #sets = new Map<string, LanguageSet>();
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

  /**
   * Recognises one text line (page segmentation mode 7) with the given models loaded together. `tiled`:
   * binarised by Otsu in tiles (Tesseract's `thresholding_method` 1) instead of over the whole line.
   */
  async recognizeLine(traineddata: readonly string[], image: Uint8Array, tiled = false): Promise<Page> {
    return this.#recognize(traineddata, image, undefined, tiled);
  }

  /**
   * Recognises a whole page with Tesseract's own layout analysis (page segmentation mode 3), or one
   * column of a page (`column`, mode 4: lines of any size one under the other).
   */
  async recognizePage(traineddata: readonly string[], image: Uint8Array, column = false): Promise<Page> {
    return this.#recognize(traineddata, image, column ? PSM.SINGLE_COLUMN : PSM.AUTO);
  }

  /** `layout`: a page's segmentation mode; none for a line. */
  async #recognize(traineddata: readonly string[], image: Uint8Array, layout?: PSM, tiled = false): Promise<Page> {
    const page = layout !== undefined;
    if (this.#closed) throw new Error('Tesseract workers are closed.');
    const key = [...new Set(traineddata)].join('+');
    const set = this.#sets.get(key) ?? this.#create(key);
    const instance = this.#pick(key, set, page);
    instance.busy += 1;
    if (page) instance.pages += 1;
    set.lastUsed = ++this.#tick;
    clearTimeout(set.idle);
    const read = async () => {
      const worker = await instance.worker;
      const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      // A page's layout mode, or a line's threshold per tile, is set for this call and set back after it.
      const own = page ? { tessedit_pageseg_mode: layout } : tiled ? { thresholding_method: TILED_OTSU } : undefined;
      if (own === undefined) return (await worker.recognize(bytes, {}, { text: false, blocks: true })).data;
      if (page) instance.grown = true;
      await worker.setParameters(own);
      try {
        return (await worker.recognize(bytes, {}, { text: false, blocks: true })).data;
      } finally {
        await worker.setParameters(page ? { tessedit_pageseg_mode: PSM.SINGLE_LINE } : { thresholding_method: GLOBAL_OTSU });
      }
    };
    // Callers share a worker: a call's parameters are set, used and set back before anyone else's call.
    const turn = instance.turn.then(read);
    instance.turn = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      instance.busy -= 1;
      if (page) instance.pages -= 1;
      set.lastUsed = ++this.#tick;
      if (instance.busy === 0) this.#settle(key, set, instance);
    }
  }

  /**
   * An idle worker of the set; else, for a page or when every worker is reading a page, a new one
   * while the set has fewer than `maxPerSet` (a page takes seconds, loading a set ~0.3 s); else the
   * least busy: lines take milliseconds, and wait their turn rather than load the set again.
   */
  #pick(key: string, set: LanguageSet, page: boolean): Instance {
    const idle = set.instances.find((i) => i.busy === 0);
    if (idle) return idle;
    const allOnPages = set.instances.every((i) => i.pages > 0);
    if ((page || allOnPages) && set.instances.length < (this.#options.maxPerSet ?? 1)) return this.#start(key, set);
    return set.instances.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  /**
   * A worker that is free again: one that has read a whole page (its memory grew the most: a
   * Fraktur page ~120 MB) is ended at once; the others stay while the set is used, and the set is
   * ended after `idleMs` unused (the next image that needs it loads it again).
   */
  #settle(key: string, set: LanguageSet, instance: Instance): void {
    if (instance.grown) {
      set.instances = set.instances.filter((i) => i !== instance);
      terminate(instance);
    }
    if (set.instances.length === 0) {
      if (this.#sets.get(key) === set) this.#sets.delete(key);
      return;
    }
    if (busyOf(set) > 0) return;
    set.idle = setTimeout(() => {
      if (busyOf(set) === 0 && this.#sets.get(key) === set) this.#end(key, set);
    }, this.#options.idleMs ?? IDLE_MS);
    set.idle.unref();
  }

  /** Language sets currently loaded (for tests and metrics). */
  get loaded(): string[] {
    return [...this.#sets.keys()];
  }

  /** Workers currently alive, over all sets (for tests and metrics). */
  get workerCount(): number {
    return [...this.#sets.values()].reduce((n, s) => n + s.instances.length, 0);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const instances = [...this.#sets.values()].flatMap((set) => {
      clearTimeout(set.idle);
      return set.instances;
    });
    this.#sets.clear();
    await Promise.all(instances.map(async (i) => (await i.worker.catch(() => undefined))?.terminate()));
    await this.#links.remove();
  }

  #locate(name: string): TraineddataLocation | undefined {
    return locateTraineddata(name, this.#options.systemDirs ?? SYSTEM_TESSDATA_DIRS);
  }

  #create(key: string): LanguageSet {
    const locations = key.split('+').map((name) => {
      const location = this.#locate(name);
      if (location === undefined) throw new Error(`No ${name}.traineddata is installed.`);
      return location;
    });
    this.#evict();
    const set: LanguageSet = { locations, instances: [], lastUsed: ++this.#tick };
    this.#sets.set(key, set);
    return set;
  }

  #start(key: string, set: LanguageSet): Instance {
    const worker = startWorker(key.split('+'), set.locations, this.#links);
    const instance: Instance = { worker, busy: 0, pages: 0, turn: Promise.resolve() };
    set.instances.push(instance);
    // A failed start must not stay cached: the next call retries.
    worker.catch(() => {
      set.instances = set.instances.filter((i) => i !== instance);
      if (set.instances.length === 0 && this.#sets.get(key) === set) this.#sets.delete(key);
    });
    return instance;
  }

  #evict(): void {
    while (this.#sets.size >= this.#options.maxLoaded) {
      const idle = [...this.#sets.entries()].filter(([, s]) => busyOf(s) === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
      if (idle.length === 0) return;
      this.#end(...idle[0]);
    }
  }

  /** Ends a language set: its workers and its idle timer. */
  #end(key: string, set: LanguageSet): void {
    clearTimeout(set.idle);
    this.#sets.delete(key);
    set.instances.forEach(terminate);
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
