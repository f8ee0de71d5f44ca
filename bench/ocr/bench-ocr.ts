/**
 * `npm run bench:ocr [-- --only <kind>] [--split tune|check] [--limit N] [--api] [--profile] [--details] [--save DIR] [--no-legible|--no-tesseract]`
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
import { profileMarkdown, reportMarkdown, type ScoredRun } from './bench-report.ts';
import { loadOcrDev, rowOf } from './ocr-dev-manifest.ts';
import { runLegible } from './run-legible.ts';
import { runLegibleApi } from './run-legible-api.ts';
import { ensureTesseract, runTesseract, tesseractVersion } from './run-tesseract.ts';
import { scoreImage } from './score-image.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    split: { type: 'string' },
    limit: { type: 'string' },
    profile: { type: 'boolean', default: false },
    api: { type: 'boolean', default: false },
    details: { type: 'boolean', default: false },
    'no-tesseract': { type: 'boolean', default: false },
    'no-legible': { type: 'boolean', default: false },
    save: { type: 'string' },
  },
});

const root = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = path.resolve(root, '../shared/data/ocr-dev');
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
if (only && !kinds.includes(only)) {
  console.error(`--only must be one of ${kinds.join(', ')}, got ${only}`);
  process.exit(2);
}
const records = all.filter((r) => (!only || r.kind === only) && (!values.split || r.split === values.split)).slice(0, limit);

let legible: ScoredRun | undefined;
if (!values['no-legible']) {
  console.error(`Legible${values.api ? ' (HTTP API)' : ''}: ${records.length} images`);
  // Two at a time, as many as the server's default OCR workers (and Tesseract's processes below).
  const run = values.api ? await runLegibleApi(records, 2) : await runLegible(records, values.profile);
  legible = { run, scores: records.map((r, i) => scoreImage(r, run.results[i])) };
}

let tesseract: ScoredRun | undefined;
let version = '';
if (!values['no-tesseract']) {
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
console.log(`## OCR benchmark — ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}), Node ${process.version}`);
if (legible && values.api) console.log(`Legible: through the HTTP API (\`src/main.ts\`, default configuration); started and warmed up in ${((legible.run.startupMs ?? 0) / 1000).toFixed(1)} s (not in the wall time).`);
else if (legible) console.log(`Legible: models loaded in ${((legible.run.startupMs ?? 0) / 1000).toFixed(1)} s (not in the wall time).`);
if (version) console.log(`Tesseract: ${version}, \`OMP_THREAD_LIMIT=1\`.`);
console.log('');
console.log(reportMarkdown([legible, tesseract].filter((s) => s !== undefined), records.map((r) => rowOf(r).row)));
for (const s of [legible, tesseract]) {
  for (const r of s?.run.results ?? []) if (r.error) console.log(`\n${s!.run.engine} failed on ${r.id}: ${r.error}`);
}
if (values.profile && legible && !values.api) console.log(`\n### Legible time per stage (ms; summed over images)\n\n${profileMarkdown(legible.run)}`);
if (values.save) {
  fs.mkdirSync(values.save, { recursive: true });
  for (const s of [legible, tesseract]) {
    if (s) fs.writeFileSync(path.join(values.save, `${s.run.engine.toLowerCase()}.json`), JSON.stringify(s.run.results));
  }
}
if (values.details) {
  console.log('\n| image | Legible | Tesseract |\n| --- | --- | --- |');
  records.forEach((r, i) => {
    const show = (s: ScoredRun | undefined) => {
      const x = s?.scores[i];
      if (!x) return '–';
      return 'cer' in x ? `${x.cer.edits}/${x.cer.length} edits` : `${x.match.matched}/${x.match.predicted}/${x.match.expected} hit/pred/gt`;
    };
    console.log(`| ${r.id} | ${show(legible)} | ${show(tesseract)} |`);
  });
}
