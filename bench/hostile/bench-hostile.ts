// `npm run bench:hostile`: the hostile-image corpus (test/helpers/hostile-images.ts) against a
// *listening* server in its own process (default OCR_WORKERS, SQLite, glibc malloc settings as deployed), 2 requests at a time; prints
// status classes, per-entry outcomes and the server's RSS (baseline after warm-up, peak = VmHWM).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { hostileImages } from '../../test/helpers/hostile-images.ts';
import { SERVER_MALLOC_ENV } from '../server-malloc-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-hostile-'));
const setup = createDatabase(`sqlite://${path.join(dir, 'legible.db')}`);
await migrateToLatest(setup.db);
const { secret } = await createAccountsRepository(setup.db).createAccount('acme');
await setup.destroy();
const port = String(20000 + Math.floor(Math.random() * 20000));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: ROOT,
  stdio: 'ignore',
  env: { ...process.env, ...SERVER_MALLOC_ENV, DATA_DIR: dir, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: '' },
});
const base = `http://127.0.0.1:${port}`;
const rssMb = (field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

try {
  for (let i = 0; ; i++) {
    if (i > 300) throw new Error('server did not start');
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  await fetch(`${base}/api/accounts/acme/projects`, { method: 'POST', headers, body: JSON.stringify({ projectId: 'hostile-bench' }) });
  await fetch(`${base}/api/projects/hostile-bench/apis`, { method: 'POST', headers, body: JSON.stringify({ api: 'ocr' }) });
  const key = (await (await fetch(`${base}/api/projects/hostile-bench/api-keys`, { method: 'POST', headers, body: '{}' })).json())
    .keyString as string;
  await new Promise((r) => setTimeout(r, 8000)); // OCR_WARM: both workers load their models
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
  server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
}
