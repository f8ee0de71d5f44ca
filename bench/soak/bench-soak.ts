/**
 * `npm run bench:soak [-- --images N] [--every N] [--concurrency N] [--env KEY=VALUE …] [--log FILE]`
 *
 * Memory of one server under a long mixed load: `npm start`'s entry point (default configuration,
 * glibc malloc settings as the Dockerfile sets them, fresh store from `bench-store.ts`) reads `N` images (default 1 000) of every kind of
 * `../shared/data/ocr-dev` (photos, receipts, forms, full pages, Arabic, Vietnamese, Chinese lines),
 * in a fixed shuffled order, cycled, through `/v1/images:annotate`, `concurrency` (default 2) at a
 * time. Every `every` images (default 100) it prints the server's resident memory (`VmRSS` of
 * /proc/<pid>/status, every thread included) and the highest RSS read since the last line (it is read
 * after every image), then a Markdown table, the peak (`VmHWM`) and the trend over the last half: the
 * least-squares slope of the RSS read after each of those images, MB per 100 images (five readings
 * a hundred images apart swing ±100 MB with the images in flight; hundreds of readings do not).
 * `--env` passes settings to the server (to measure one suspect at a time); `--log` writes each reading
 * with the image just answered, as JSON lines (to see which images the peaks come with). Ctrl-C stops
 * early and still prints the table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createStore, PEPPER, projectKey } from '../load/bench-store.ts';
import { SERVER_ENTRY, spawnServer } from '../load/spawn-server.ts';
import { loadOcrDev } from '../ocr/ocr-dev-manifest.ts';
import { hintsOf, modeOf } from '../ocr/run-legible.ts';
import { peakRss } from '../ocr/peak-rss.ts';
import { residentBytes, slope } from './resident-memory.ts';
import { SERVER_MALLOC_ENV } from '../server-malloc-env.ts';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '1000' },
    every: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '2' },
    env: { type: 'string', multiple: true, default: [] },
    log: { type: 'string' },
  },
});
const total = Number(values.images);
const every = Number(values.every);
const concurrency = Number(values.concurrency);
const log = values.log;
if (log) fs.writeFileSync(log, '');
for (const [name, v] of [
  ['--images', total],
  ['--every', every],
  ['--concurrency', concurrency],
] as const) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`${name} must be a positive integer, got ${v}`);
    process.exit(2);
  }
}
// As the Dockerfile and `npm start` run the server.
const serverEnv: Record<string, string> = { ...SERVER_MALLOC_ENV };
for (const pair of values.env) {
  const at = pair.indexOf('=');
  if (at < 1) {
    console.error(`--env wants KEY=VALUE, got ${pair}`);
    process.exit(2);
  }
  serverEnv[pair.slice(0, at)] = pair.slice(at + 1);
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const records = loadOcrDev(path.resolve(root, '../shared/data/ocr-dev'));
if (!records) {
  console.log('No OCR development set at ../shared/data/ocr-dev: nothing to soak with.');
  process.exit(0);
}
// A fixed pseudo-random order (same every run), so that kinds and image sizes are mixed.
let seed = 14;
// biome-ignore lint/suspicious/noAssignInExpressions: a seeded generator.
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const order = records
  .map((r) => ({ r, k: random() }))
  .sort((a, b) => a.k - b.k)
  .map((x) => x.r);
const requests = await Promise.all(
  order.map(async (r) => {
    const content = (await fs.promises.readFile(r.file)).toString('base64');
    const type = modeOf(r) === 'document' ? 'DOCUMENT_TEXT_DETECTION' : 'TEXT_DETECTION';
    return JSON.stringify({ requests: [{ image: { content }, features: [{ type }], imageContext: { languageHints: hintsOf(r) } }] });
  }),
);

const mb = (b: number) => (b / 2 ** 20).toFixed(0);
const store = await createStore();
const samples: Array<{ images: number; rss: number; windowMax: number; seconds: number; failed: number }> = [];
/** RSS after every image: [images done, bytes]. */
const readings: Array<[number, number]> = [];
let peak = 0;
try {
  // Resolves once the models are loaded and warmed up (OCR_WARM).
  const server = await spawnServer(
    SERVER_ENTRY,
    { ...store.env, SECRET_PEPPER: PEPPER, LOG_LEVEL: 'info', ...serverEnv },
    'OCR models loaded',
  );
  const pid = server.child.pid!;
  try {
    const keyString = await projectKey(server.url, store.token, store.accountId, false);
    const start = performance.now();
    const warm = residentBytes(pid);
    samples.push({ images: 0, rss: warm, windowMax: warm, seconds: 0, failed: 0 });
    console.error(`server ${pid}: ${(samples[0].rss / 2 ** 20).toFixed(0)} MB after warm-up; ${total} images, ${concurrency} at a time`);
    let next = 0,
      done = 0,
      failed = 0,
      stopped = false,
      windowMax = 0;
    // Ctrl-C (SIGINT) ends the soak after the images in flight, and the table is still printed.
    process.once('SIGINT', () => {
      console.error('SIGINT: finishing the images in flight');
      stopped = true;
      next = total;
    });
    const lane = async () => {
      while (next < total) {
        const i = next++;
        try {
          const res = await fetch(`${server.url}/v1/images:annotate`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-goog-api-key': keyString },
            body: requests[i % requests.length],
          });
          const body = (await res.json()) as { error?: unknown; responses?: Array<{ error?: unknown }> };
          const error = res.status !== 200 ? body.error : body.responses?.[0]?.error;
          if (res.status !== 200 || error) {
            // Named, so a failure can be told from a memory problem (a deadline under load, say).
            console.error(`image ${i} (${order[i % order.length].id}): HTTP ${res.status} ${JSON.stringify(error)}`);
            failed++;
          }
        } catch (err) {
          // A dropped connection is a failed image; a dead server ends the soak with its exit status.
          const { exitCode, signalCode } = server.child;
          if (exitCode !== null || signalCode !== null)
            throw new Error(`the server exited (code ${exitCode}, signal ${signalCode}) at image ${i}`, { cause: err });
          console.error(
            `image ${i} (${order[i % order.length].id}): ${err instanceof Error ? `${err.message}: ${String(err.cause)}` : err}`,
          );
          failed++;
        }
        done++;
        const rss = residentBytes(pid);
        readings.push([done, rss]);
        if (log)
          fs.appendFileSync(log, `${JSON.stringify({ images: done, id: order[i % order.length].id, mb: Math.round(rss / 2 ** 20) })}\n`);
        windowMax = Math.max(windowMax, rss);
        if (done % every === 0 || done === total || (stopped && done === next)) {
          const sample = { images: done, rss, windowMax, seconds: (performance.now() - start) / 1000, failed };
          samples.push(sample);
          windowMax = 0;
          console.error(
            `${String(done).padStart(6)} images  RSS ${mb(sample.rss).padStart(5)} MB (max since last ${mb(sample.windowMax).padStart(5)} MB)  ${sample.seconds.toFixed(0)} s  ${failed} failed`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    peak = peakRss(pid);
  } finally {
    await server.stop();
  }
} finally {
  await store.drop();
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`## Soak — ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}), Node ${process.version}`);
console.log(
  `${total} ocr-dev images (${records.length} distinct, all kinds, cycled), ${concurrency} at a time, one server (default configuration${values.env.length ? `, ${values.env.join(' ')}` : ''}).\n`,
);
console.log('| images | server RSS | highest since the row above | elapsed | failed |\n| ---: | ---: | ---: | ---: | ---: |');
for (const s of samples) console.log(`| ${s.images} | ${mb(s.rss)} MB | ${mb(s.windowMax)} MB | ${s.seconds.toFixed(0)} s | ${s.failed} |`);
const last = samples[samples.length - 1];
const tail = readings.filter(([images]) => images > last.images / 2);
const trend = slope(tail.map(([images, rss]) => [images / 100, rss / 2 ** 20]));
console.log(
  `\nPeak RSS ${mb(peak)} MB, final ${mb(last.rss)} MB; trend over the last ${tail.length} images (RSS after each): ${trend >= 0 ? '+' : ''}${trend.toFixed(1)} MB per 100 images.`,
);
