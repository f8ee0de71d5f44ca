/**
 * `npm run bench:ocr [-- --split tune|check|both] [--only <kinds or id prefixes, comma-separated>] [--limit N] [--api] [--profile]
 *   [--details] [--ablate] [--mode text|document] [--variants] [--save DIR] [--from DIR | --tesseract-from DIR] [--no-legible|--no-tesseract]
 *   [--data DIR]`
 *
 * Every table gives ocr-dev's two splits side by side: develop on `tune`, confirm on `check` (a change
 * that helps `tune` and hurts `check` is fitted to those images). `--details` adds a row per image,
 * `--ablate` the score of each text fix (`src/ocr/words/text-fixes.ts`) with and without it, and
 * `--tesseract-from DIR` reuses a Tesseract run saved by `--save` (its output does not change), `--from DIR` both
 * saved runs (scores them again, reads nothing). `--variants` reads the selected full pages, forms, receipts and
 * scenes instead as they also reach users: pages at half size, turned, slanted by 2°, as a grey JPEG; forms at 0.8 of
 * their size; receipts photographed on a dark table and in dim warm light; street photos at 0.6 and 1.5 of their
 * size (`image-variants.ts`). `--data DIR` reads another set in ocr-dev's manifest format instead, such as images of
 * its sources that it does not hold.
 *
 * Scores Legible's engine and the Tesseract 5 CLI on the same images of `../shared/data/ocr-dev`
 * (relative to the repository root), one engine after the other, two images at a time each, and
 * prints Markdown tables: quality per kind with the ratio, then latency, wall time, images/s and
 * peak RSS per engine. Scoring rules: the set's README and `docs/decisions.md` (OCR benchmark).
 * `--api` reads the images through a real server (`npm start`'s entry point, `images:annotate` over
 * HTTP, as a client would) instead of the engine in this process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ablationMarkdown, pagesMarkdown, profileMarkdown, reportMarkdown, type ScoredRun } from './bench-report.ts';
import type { EngineRun } from './engine-run.ts';
import { loadOcrDev, rowOf, type OcrDevRecord } from './ocr-dev-manifest.ts';
import { imageVariants } from './image-variants.ts';
import { runLegible } from './run-legible.ts';
import { cpuHasVnni } from '../../src/ocr/models/cpu-has-vnni.ts';
import { runLegibleApi } from './run-legible-api.ts';
import { ensureTesseract, runTesseract, tesseractVersion } from './run-tesseract.ts';
import { scoreImage } from './score-image.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    split: { type: 'string', default: 'both' },
    ablate: { type: 'boolean', default: false },
    // TEXT_DETECTION or DOCUMENT_TEXT_DETECTION for every image (default: the one that fits its kind).
    mode: { type: 'string' },
    'tesseract-from': { type: 'string' },
    from: { type: 'string' },
    limit: { type: 'string' },
    profile: { type: 'boolean', default: false },
    api: { type: 'boolean', default: false },
    details: { type: 'boolean', default: false },
    'no-tesseract': { type: 'boolean', default: false },
    'no-legible': { type: 'boolean', default: false },
    save: { type: 'string' },
    variants: { type: 'boolean', default: false },
    data: { type: 'string' },
  },
});

const root = fileURLToPath(new URL('../../', import.meta.url));
// Another set in ocr-dev's manifest format (images of the same sources it does not hold) with `--data DIR`.
const dataDir = values.data === undefined ? path.resolve(root, '../shared/data/ocr-dev') : path.resolve(values.data);
const all = loadOcrDev(dataDir);
if (!all) {
  console.log(`No OCR development set at ${dataDir} (manifest.jsonl missing): nothing to benchmark.`);
  process.exit(0);
}
const limit = values.limit === undefined ? Infinity : Number(values.limit);
if (!(limit > 0)) {
  console.error(`--limit must be a positive number, got ${values.limit}`);
  process.exit(2);
}
const only = values.only;
const kinds = [...new Set(all.map((r) => r.kind))];
const split = values.split ?? 'both';
if (!['tune', 'check', 'both'].includes(split)) {
  console.error(`--split must be tune, check or both, got ${split}`);
  process.exit(2);
}
// Kinds, or else starts of image ids (one image, or a source's images), separated by commas.
const wanted = only?.split(',') ?? [];
const selected = (r: OcrDevRecord) => !only || wanted.some((w) => (kinds.includes(w) ? r.kind === w : r.id.startsWith(w)));
const chosen = all.filter((r) => selected(r) && (split === 'both' || r.split === split)).slice(0, limit);
const records = values.variants ? await imageVariants(chosen) : chosen;
if (values.mode !== undefined && values.mode !== 'text' && values.mode !== 'document') {
  console.error(`--mode must be text or document, got ${values.mode}`);
  process.exit(2);
}
if (records.length === 0) {
  const onlyVariants = values.variants ? ' (--variants: full pages of modern print, forms, receipts and scenes only)' : '';
  console.error(`No image matches --only ${only} --split ${split}${onlyVariants} (kinds: ${kinds.join(', ')}).`);
  process.exit(2);
}

/**
 * A run saved by `--save` in `dir`, for this run's images (in their order); its wall time scaled to
 * the share of its images read here.
 */
function savedRun(dir: string, engine: string): EngineRun {
  const file = path.join(dir, `${engine}.json`);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as EngineRun | EngineRun['results'];
  const run: EngineRun = Array.isArray(raw) ? { engine, results: raw, wallMs: NaN, peakRssBytes: NaN } : raw;
  const byId = new Map(run.results.map((r) => [r.id, r]));
  const missing = records.filter((r) => !byId.has(r.id)).map((r) => r.id);
  if (missing.length > 0) {
    console.error(`${file} has no result for ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}`);
    process.exit(2);
  }
  return { ...run, results: records.map((r) => byId.get(r.id)!), wallMs: (run.wallMs * records.length) / run.results.length };
}

let legible: ScoredRun | undefined;
if (values.from && !values['no-legible']) {
  const run = savedRun(values.from, 'legible');
  legible = { run, scores: records.map((r, i) => scoreImage(r, run.results[i])) };
} else if (!values['no-legible']) {
  console.error(`Legible${values.api ? ' (HTTP API)' : ''}: ${records.length} images`);
  // Two at a time, as many as the server's default OCR workers (and Tesseract's processes below).
  const run = values.api
    ? await runLegibleApi(records, 2)
    : await runLegible(records, values.profile, values.ablate, values.mode as 'text' | 'document' | undefined);
  legible = { run, scores: records.map((r, i) => scoreImage(r, run.results[i])) };
}

let tesseract: ScoredRun | undefined;
let version = '';
const saved = values['tesseract-from'] ?? values.from;
if (saved && !values['no-tesseract']) {
  const run = savedRun(saved, 'tesseract');
  version = `${run.version ?? 'Tesseract'} (saved run)`;
  tesseract = { run, scores: records.map((r, i) => scoreImage(r, run.results[i])) };
} else if (!values['no-tesseract']) {
  const problem = ensureTesseract(records);
  if (problem) {
    console.error(`Tesseract skipped: ${problem}`);
  } else {
    version = tesseractVersion();
    console.error(`${version}: ${records.length} images`);
    const run = await runTesseract(records, 2);
    tesseract = { run, scores: records.map((r, i) => scoreImage(r, run.results[i])) };
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const vnni = cpuHasVnni() ? ', VNNI' : ', no VNNI';
console.log(
  `## OCR benchmark — ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}${vnni}), Node ${process.version}`,
);
if (legible && values.api)
  console.log(
    `Legible: through the HTTP API (\`src/main.js\` compiled as \`npm start\` runs it, default configuration); started and warmed up in ${((legible.run.startupMs ?? 0) / 1000).toFixed(1)} s (not in the wall time).`,
  );
else if (legible)
  console.log(
    `Legible: models loaded in ${((legible.run.startupMs ?? 0) / 1000).toFixed(1)} s (not in the wall time), recognizer ${legible.run.recognizerPrecision ?? 'fp32'}.`,
  );
if (version) console.log(`Tesseract: ${version}, \`OMP_THREAD_LIMIT=1\`.`);
console.log('');
const runs = [legible, tesseract].filter((s) => s !== undefined);
console.log(
  reportMarkdown(
    runs,
    records.map((r) => rowOf(r).row),
    records.map((r) => r.split ?? ''),
  ),
);
for (const s of [legible, tesseract]) {
  for (const r of s?.run.results ?? []) if (r.error) console.log(`\n${s!.run.engine} failed on ${r.id}: ${r.error}`);
}
if (values.profile && legible && !values.api)
  console.log(`\n### Legible time per stage (ms; summed over images)\n\n${profileMarkdown(legible.run)}`);
if (values.save) {
  fs.mkdirSync(values.save, { recursive: true });
  for (const s of [legible, tesseract]) {
    if (s)
      fs.writeFileSync(
        path.join(values.save, `${s.run.engine.toLowerCase()}.json`),
        JSON.stringify({ ...s.run, version: s === tesseract ? version : undefined }),
      );
  }
}
if (values.details) console.log(`\n### Per image (score ×100)\n\n${pagesMarkdown(runs, records)}`);
if (values.ablate && legible && !values.api) {
  console.log(
    `\n### Text fixes: score with and without each (\`src/ocr/words/text-fixes.ts\`)\n\n${ablationMarkdown(records, legible.run, (r, out) => scoreImage(r, out))}`,
  );
}
