// `npm run bench:files`: PDF pages vs the same pages as PNGs, and what hostile PDFs cost.
// (a) throughput: a 20-page scanned PDF through files:annotate (4 requests of 5 pages, sent together)
//     and through files:asyncBatchAnnotate, against the same 20 page images as PNGs through
//     images:annotate (4 requests of 5 images, sent together); same server, warm engine.
// (b) hostile PDFs through files:annotate: wall time and peak RSS growth of the server process
//     (VmHWM after resetting it through /proc/self/clear_refs), each run on a warm server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';
import { bombPdf, encryptedPdf, hugePagePdf, manyPagesPdf, textImage } from '../../test/helpers/document-fixtures.ts';
import { projectKey } from '../load/bench-store.ts';

const PAGES = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-bench-files-'));
const dbUrl = `sqlite://${path.join(dir, 'legible.db')}`;
const setup = createDatabase(dbUrl);
await migrateToLatest(setup.db);
const { secret: token } = await createAccountsRepository(setup.db).createAccount('bench');
await setup.destroy();
const app = await buildApp({
  config: loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATA_DIR: dir, DATABASE_URL: dbUrl, OPERATION_POLL_MS: '50' }),
  database: createDatabase(dbUrl),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const key = await projectKey(base, token, 'bench', false);
await app.ocr.ready();

const post = async (url: string, body: unknown) => {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};

// A scanned page: a letter page at 200 dpi (1700 × 2200) with 24 lines of text.
const words = ['invoice', 'payment', 'account', 'balance', 'customer', 'delivery', 'address', 'total', 'amount', 'number', 'order', 'date'];
const pngs = await Promise.all(
  Array.from({ length: PAGES }, (_, p) =>
    textImage(
      Array.from(
        { length: 24 },
        (_, l) =>
          `${words[(p + l) % words.length]} ${words[(p * 3 + l) % words.length]} ${1000 + p * 31 + l} ${words[(l * 5) % words.length]}`,
      ),
      1700,
      2200,
      44,
    ),
  ),
);
const doc = await PDFDocument.create();
for (const png of pngs) {
  const image = await doc.embedPng(png);
  doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
}
const pdf = Buffer.from(await doc.save());
fs.mkdirSync(path.join(dir, 'storage'), { recursive: true });
await fetch(`${base}/storage/v1/b`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
  body: JSON.stringify({ name: 'bench' }),
});
await fetch(`${base}/upload/storage/v1/b/bench/o?uploadType=media&name=scan.pdf`, {
  method: 'POST',
  headers: { 'content-type': 'application/pdf', 'x-goog-api-key': key },
  body: pdf,
});

const features = [{ type: 'DOCUMENT_TEXT_DETECTION' }];
const groups = [0, 5, 10, 15];
async function viaPngs(): Promise<number> {
  const results = await Promise.all(
    groups.map((g) =>
      post('/v1/images:annotate', { requests: pngs.slice(g, g + 5).map((p) => ({ image: { content: p.toString('base64') }, features })) }),
    ),
  );
  return results.flatMap((r) => r.responses).filter((r: any) => r.fullTextAnnotation).length;
}
async function viaFiles(): Promise<number> {
  const content = pdf.toString('base64');
  const results = await Promise.all(
    groups.map((g) =>
      post('/v1/files:annotate', {
        requests: [{ inputConfig: { content, mimeType: 'application/pdf' }, features, pages: [1, 2, 3, 4, 5].map((i) => g + i) }],
      }),
    ),
  );
  return results.flatMap((r) => r.responses[0].responses ?? []).filter((r: any) => r.fullTextAnnotation).length;
}
let asyncRun = 0;
async function viaAsync(): Promise<number> {
  asyncRun += 1;
  const op = await post('/v1/files:asyncBatchAnnotate', {
    requests: [
      {
        inputConfig: { gcsSource: { uri: 'gs://bench/scan.pdf' }, mimeType: 'application/pdf' },
        features,
        outputConfig: { gcsDestination: { uri: `gs://bench/run${asyncRun}/` }, batchSize: 20 },
      },
    ],
  });
  for (;;) {
    const res = (await (await fetch(`${base}/v1/${op.name}`, { headers: { 'x-goog-api-key': key } })).json()) as any;
    if (res.done) return res.error ? 0 : res.metadata.pagesDone;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function time(fn: () => Promise<number>): Promise<{ ms: number; pages: number }> {
  const start = performance.now();
  const pages = await fn();
  return { ms: performance.now() - start, pages };
}

await viaPngs(); // warm both paths once (models, PDF.js in the document worker)
await viaFiles();
const rows: Array<[string, number[], number]> = [];
for (const [name, fn] of [
  ['images:annotate (20 PNGs)', viaPngs],
  ['files:annotate (PDF, 4 × 5 pages)', viaFiles],
  ['files:asyncBatchAnnotate (PDF, 20 pages)', viaAsync],
] as const) {
  const runs: number[] = [];
  let pages = 0;
  for (let i = 0; i < ROUNDS; i += 1) {
    const r = await time(fn);
    runs.push(r.ms);
    pages = r.pages;
  }
  rows.push([name, runs, pages]);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pngMedian = median(rows[0][1]);
console.log(
  `\n(a) ${PAGES} scanned pages (1700 × 2200), DOCUMENT_TEXT_DETECTION, ${app.ocr ? '' : ''}OCR_WORKERS=${process.env.OCR_WORKERS ?? 2}, ${ROUNDS} rounds on ${os.cpus().length} cores`,
);
console.log('| path | pages read | median s | pages/s | × PNG time |');
console.log('|---|---|---|---|---|');
for (const [name, runs, pages] of rows) {
  const m = median(runs);
  console.log(`| ${name} | ${pages} | ${(m / 1000).toFixed(2)} | ${(PAGES / (m / 1000)).toFixed(2)} | ${(m / pngMedian).toFixed(2)} |`);
}

function vmHwm(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}
console.log('\n(b) hostile PDFs through files:annotate (warm server); growth = peak RSS during the request − RSS before');
console.log('| file | size | answer | ms | peak RSS growth MB |');
console.log('|---|---|---|---|---|');
const hostile: Array<[string, Buffer]> = [
  ['200 000 × 200 000 pt page', hugePagePdf()],
  ['10 000 empty pages', manyPagesPdf(10_000)],
  ['1 GB decompression bomb', await bombPdf(1024)],
  ['encrypted', encryptedPdf()],
];
for (const [name, bytes] of hostile) {
  const content = bytes.toString('base64');
  global.gc?.();
  const before = process.memoryUsage().rss;
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const start = performance.now();
  const res = await post('/v1/files:annotate', { requests: [{ inputConfig: { content, mimeType: 'application/pdf' }, features }] });
  const ms = performance.now() - start;
  const growth = (vmHwm() - before) / 1048576;
  const answer = res.responses[0].error ? `error ${res.responses[0].error.code}: ${res.responses[0].error.message.slice(0, 60)}…` : 'read';
  console.log(`| ${name} | ${(bytes.length / 1024).toFixed(0)} KB | ${answer} | ${ms.toFixed(0)} | ${growth.toFixed(0)} |`);
}
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
