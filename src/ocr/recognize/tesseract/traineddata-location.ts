import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * Where a Tesseract model lives on disk, in the form tesseract.js's `langPath`/`gzip` options take.
 * tesseract.js treats a `langPath` that is not a URL as a local folder and reads
 * `<langPath>/<name>.traineddata[.gz]` from it; with `cacheMethod: 'none'` nothing is fetched or
 * written, so recognition never touches the network.
 */
export interface TraineddataLocation {
  name: string;
  /** Folder holding `<name>.traineddata` (or `.gz`). */
  langPath: string;
  gzip: boolean;
}

/** The model file itself. */
export function traineddataFile(location: TraineddataLocation): string {
  return path.join(location.langPath, `${location.name}.traineddata${location.gzip ? '.gz' : ''}`);
}

/**
 * `4.0.0_best_int` is tessdata_best converted to integer: LSTM only, the most accurate model
 * tesseract.js ships (`4.0.0` adds the legacy engine we never use).
 * https://github.com/naptha/tessdata#readme
 */
const NPM_VARIANT = '4.0.0_best_int';

/**
 * System folders of distribution packages (Debian/Ubuntu `tesseract-ocr-<lang>`, Fedora, Homebrew),
 * searched after the npm packages: Russian, for one, has no `@tesseract.js-data` package.
 */
export const SYSTEM_TESSDATA_DIRS: readonly string[] = [
  '/usr/share/tesseract-ocr/5/tessdata',
  '/usr/share/tesseract-ocr/4.00/tessdata',
  '/usr/share/tessdata',
  '/usr/local/share/tessdata',
  '/opt/homebrew/share/tessdata',
];

const require = createRequire(import.meta.url);
const found = new Map<string, TraineddataLocation | undefined>();

function fromNpm(name: string): TraineddataLocation | undefined {
  try {
    const dir = path.join(path.dirname(require.resolve(`@tesseract.js-data/${name}/package.json`)), NPM_VARIANT);
    return fs.existsSync(path.join(dir, `${name}.traineddata.gz`)) ? { name, langPath: dir, gzip: true } : undefined;
  } catch {
    return undefined;
  }
}

function fromSystem(name: string, dirs: readonly string[]): TraineddataLocation | undefined {
  const dir = dirs.find((d) => fs.existsSync(path.join(d, `${name}.traineddata`)));
  return dir === undefined ? undefined : { name, langPath: dir, gzip: false };
}

/**
 * Finds `<name>.traineddata`: the npm package `@tesseract.js-data/<name>` first, then the system
 * folders. Memoised per name (a few `existsSync` calls the first time).
 *
 * @example locateTraineddata('ara') // { name: 'ara', langPath: '…/@tesseract.js-data/ara/4.0.0_best_int', gzip: true }
 */
export function locateTraineddata(name: string, systemDirs: readonly string[] = SYSTEM_TESSDATA_DIRS): TraineddataLocation | undefined {
  if (!/^[a-z_]{3,12}$/.test(name)) return undefined;
  const key = `${name}\0${systemDirs.join('\0')}`;
  if (!found.has(key)) found.set(key, fromNpm(name) ?? fromSystem(name, systemDirs));
  return found.get(key);
}

/**
 * A folder of symbolic links `<name>.traineddata.gz` → each model file, so one tesseract.js worker
 * can load several models (`deu+fra`) that live in different package folders: tesseract.js reads
 * all of a worker's models from one `langPath`, and it checks the gzip magic bytes before
 * inflating, so an uncompressed system model behind a `.gz` name loads too. One folder per
 * `TesseractWorkers`, removed by `remove()`.
 */
export interface TraineddataLinks {
  /** Adds links for these models (already located) and returns the folder. */
  link(locations: readonly TraineddataLocation[]): Promise<string>;
  remove(): Promise<void>;
}

export function createTraineddataLinks(): TraineddataLinks {
  let dir: Promise<string> | undefined;
  const linked = new Set<string>();
  return {
    async link(locations) {
      dir ??= fs.promises.mkdtemp(path.join(os.tmpdir(), 'legible-tessdata-'));
      const folder = await dir;
      for (const location of locations) {
        if (linked.has(location.name)) continue;
        await fs.promises.symlink(traineddataFile(location), path.join(folder, `${location.name}.traineddata.gz`));
        linked.add(location.name);
      }
      return folder;
    },
    async remove() {
      if (dir === undefined) return;
      const folder = await dir.catch(() => undefined);
      dir = undefined;
      linked.clear();
      if (folder !== undefined) await fs.promises.rm(folder, { recursive: true, force: true });
    },
  };
}
