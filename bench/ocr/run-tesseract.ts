import { spawn, spawnSync } from 'node:child_process';
import type { EngineImageResult, EngineRun } from './engine-run.ts';
import { mapLimit } from './map-limit.ts';
import { isSingleLine, type OcrDevRecord } from './ocr-dev-manifest.ts';
import { peakRss } from './peak-rss.ts';

/** Tesseract's language packs for the set's `lang` values (Debian `tesseract-ocr-<pack>`). */
const PACKS: Record<string, string> = {
  en: 'eng',
  ar: 'ara',
  vi: 'vie',
  zh: 'chi_sim',
  ko: 'kor',
  ja: 'jpn',
  hi: 'hin',
  ru: 'rus',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  pt: 'por',
  it: 'ita',
  mul: 'eng+deu+fra+spa+ita+por',
};
/** One OpenMP thread per process: two processes at a time on two cores, like Legible's two workers. */
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', OMP_THREAD_LIMIT: '1', LC_ALL: 'C.UTF-8' };

export function packsOf(r: OcrDevRecord): string {
  return PACKS[r.lang] ?? 'eng';
}

/**
 * Makes sure the Tesseract 5 CLI and the packs the records need are there, installing the Debian
 * packages with apt-get when they are not. Returns a reason when Tesseract cannot be used.
 */
export function ensureTesseract(records: readonly OcrDevRecord[]): string | undefined {
  const needed = [...new Set(records.flatMap((r) => packsOf(r).split('+')))];
  const installed = () => {
    const out = spawnSync('tesseract', ['--list-langs'], { env: ENV, encoding: 'utf8' });
    return out.error
      ? undefined
      : new Set(
          `${out.stdout}`
            .split('\n')
            .slice(1)
            .map((l) => l.trim()),
        );
  };
  let langs = installed();
  const missing = needed.filter((p) => !langs?.has(p));
  if (!langs || missing.length > 0) {
    const packages = [...(langs ? [] : ['tesseract-ocr']), ...missing.map((p) => `tesseract-ocr-${p.replace('_', '-').toLowerCase()}`)];
    process.stderr.write(`Installing ${packages.join(' ')} with apt-get…\n`);
    const apt = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...ENV, DEBIAN_FRONTEND: 'noninteractive', PATH: `${ENV.PATH}:/usr/sbin:/sbin` },
    });
    if (apt.status !== 0) return `apt-get install ${packages.join(' ')} failed (status ${apt.status ?? apt.error?.message})`;
    langs = installed();
  }
  if (!langs) return 'tesseract is not installed';
  const still = needed.filter((p) => !langs.has(p));
  return still.length ? `missing Tesseract language packs: ${still.join(', ')}` : undefined;
}

export function tesseractVersion(): string {
  const out = spawnSync('tesseract', ['--version'], { env: ENV, encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`.split('\n')[0]?.trim() ?? 'tesseract';
}

/**
 * Tesseract CLI on every image, `limit` processes at a time: `--psm 7` for single-line images,
 * the default page segmentation (3) otherwise, TSV output for word boxes. Peak RSS is the largest
 * sum, over time, of the running processes' VmHWM (/proc/<pid>/status), sampled every 10 ms.
 */
export async function runTesseract(records: ReadonlyArray<OcrDevRecord & { file: string }>, limit: number): Promise<EngineRun> {
  const live = new Map<number, number>();
  let peak = 0;
  const sampler = setInterval(() => {
    let sum = 0;
    for (const pid of live.keys()) {
      const hwm = peakRss(pid);
      if (hwm > (live.get(pid) ?? 0)) live.set(pid, hwm);
      sum += live.get(pid) ?? 0;
    }
    peak = Math.max(peak, sum);
  }, 10);
  const start = performance.now();
  try {
    const results = await mapLimit(records, limit, async (r): Promise<EngineImageResult> => {
      const args = [r.file, 'stdout', '-l', packsOf(r), ...(isSingleLine(r) ? ['--psm', '7'] : []), 'tsv'];
      const t = performance.now();
      const out = await runProcess('tesseract', args, live);
      const latencyMs = performance.now() - t;
      process.stderr.write('.');
      if (out.code !== 0) return { id: r.id, text: '', words: [], latencyMs, error: `exit ${out.code}: ${out.stderr.slice(0, 200)}` };
      return { id: r.id, ...parseTesseractTsv(out.stdout), latencyMs };
    });
    const wallMs = performance.now() - start;
    process.stderr.write('\n');
    return { engine: 'Tesseract', results, wallMs, peakRssBytes: peak };
  } finally {
    clearInterval(sampler);
  }
}

function runProcess(cmd: string, args: string[], live: Map<number, number>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: ENV, timeout: 300_000 });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    if (child.pid) live.set(child.pid, 0);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => resolve({ code: -1, stdout: '', stderr: e.message }));
    child.on('close', (code) => {
      if (child.pid) live.delete(child.pid);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/**
 * Tesseract's TSV: level-5 rows are words with `left top width height conf text`; words of one
 * (block, paragraph, line) are joined by spaces and lines by newlines, in Tesseract's order.
 */
export function parseTesseractTsv(tsv: string): Pick<EngineImageResult, 'text' | 'words'> {
  const lines = new Map<string, string[]>();
  const words: EngineImageResult['words'] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const f = row.split('\t');
    if (f.length < 12 || f[0] !== '5') continue;
    const text = f.slice(11).join('\t').trim();
    if (!text) continue;
    const [left, top, width, height] = f.slice(6, 10).map(Number);
    const key = `${f[1]}/${f[2]}/${f[3]}/${f[4]}`;
    lines.set(key, [...(lines.get(key) ?? []), text]);
    words.push({
      text,
      polygon: [
        [left, top],
        [left + width, top],
        [left + width, top + height],
        [left, top + height],
      ],
    });
  }
  const text = [...lines.values()].map((w) => w.join(' ')).join('\n');
  return { text: text ? `${text}\n` : '', words };
}
