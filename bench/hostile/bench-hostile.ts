// `npm run bench:hostile`: the hostile-image corpus (test/helpers/hostile-images.ts) against a
// *listening* server in its own process (default OCR_WORKERS, a fresh store from bench-store.ts, glibc malloc
// settings as deployed), 2 requests at a time; prints
// status classes, per-entry outcomes and the server's RSS (baseline after warm-up, peak = VmHWM).
import fs from 'node:fs';
import { hostileImages } from '../../test/helpers/hostile-images.ts';
import { createStore, PEPPER, projectKey } from '../load/bench-store.ts';
import { SERVER_ENTRY, spawnServer } from '../load/spawn-server.ts';
import { SERVER_MALLOC_ENV } from '../server-malloc-env.ts';

const store = await createStore();
// Resolves once the models are loaded and warmed up (OCR_WARM), so the baseline is the warm server's.
const server = await spawnServer(
  SERVER_ENTRY,
  { ...store.env, SECRET_PEPPER: PEPPER, LOG_LEVEL: 'info', ...SERVER_MALLOC_ENV },
  'OCR models loaded',
);
const base = server.url;
const rssMb = (field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

try {
  const key = await projectKey(base, store.token, store.accountId, false);
  const baseline = rssMb('VmRSS');
  const corpus = await hostileImages();
  const counts: Record<string, number> = {};
  const entries: Record<string, number> = {};
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < corpus.length) {
      const { bytes } = corpus[next++];
      const res = await fetch(`${base}/v1/images:annotate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
        body: JSON.stringify({
          requests: [{ image: { content: bytes.toString('base64') }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] }],
        }),
      });
      const cls = `${Math.floor(res.status / 100)}xx`;
      counts[cls] = (counts[cls] ?? 0) + 1;
      const body = await res.json().catch(() => ({}));
      const outcome = body.responses?.[0]?.error ? `error ${body.responses[0].error.code}` : res.ok ? 'read' : `http ${res.status}`;
      entries[outcome] = (entries[outcome] ?? 0) + 1;
    }
  };
  await Promise.all([worker(), worker()]);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${corpus.length} hostile images, 2 at a time, against a listening server (OCR_WORKERS default)\n`);
  console.log('| files | 2xx | 4xx | 5xx | entries read | entry errors | seconds | RSS after warm-up | peak RSS (VmHWM) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const errors = Object.entries(entries)
    .filter(([k]) => k !== 'read')
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  console.log(
    `| ${corpus.length} | ${counts['2xx'] ?? 0} | ${counts['4xx'] ?? 0} | ${counts['5xx'] ?? 0} | ${entries.read ?? 0} | ${errors} | ${seconds.toFixed(1)} | ${Math.round(baseline)} MB | ${Math.round(rssMb('VmHWM'))} MB |`,
  );
} finally {
  await server.stop();
  await store.drop();
}
