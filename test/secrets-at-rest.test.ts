import { test, type TestContext } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTestDatabase } from './helpers/dialects.ts';
import { createTestAccount } from './helpers/common-route-tests.ts';

/**
 * Issue 16, items 5 and 10: no credential of any kind is stored or logged in clear. Every kind
 * (account tokens, API keys, OAuth client secrets) is created through every route that shows one,
 * with and without Idempotency-Key (and replayed), keys are sent in every spelling a client can use;
 * then the SQLite file, its WAL and the captured logs are searched for each secret.
 */
const SECRET = /lgb_(?:at|key|cs)_[0-9A-Za-z]{49}/g;

test('no secret in the database file, its WAL or the logs, whatever route created it', async (t: TestContext) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-secrets-'));
  const file = path.join(dir, 'legible.db');
  const database = await createTestDatabase('sqlite', file);
  const lines: string[] = [];
  const config = loadConfig({ LOG_LEVEL: 'trace', OCR_WORKERS: '1', OCR_WARM: 'false', DATA_DIR: dir });
  const app = await buildApp({ config, database, logStream: { write: (line) => void lines.push(line) } });
  t.after(async () => {
    await app.close();
    await database.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const owner = await createTestAccount(database, 'acme');
  const secrets = new Set<string>([owner.token]);
  let n = 0;
  const post = async (url: string, payload: unknown, idempotent: boolean) => {
    const headers = { ...owner.headers, ...(idempotent ? { 'idempotency-key': `k-${++n}` } : {}) };
    const res = await app.inject({ method: 'POST', url, headers, payload: payload as object });
    t.assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    for (const s of res.body.match(SECRET) ?? []) secrets.add(s);
    if (idempotent) {
      // The replay answers from the store.
      const replay = await app.inject({ method: 'POST', url, headers, payload: payload as object });
      t.assert.equal(replay.headers['idempotent-replayed'], 'true', url);
      t.assert.equal(replay.body.match(SECRET), null, `a replay of ${url} carries no secret: ${replay.body.slice(0, 300)}`);
    }
    return res.json();
  };

  for (const idempotent of [false, true]) {
    const project = `proj-${idempotent ? 'idem' : 'plain'}`;
    await post('/api/accounts/acme/projects', { projectId: project }, idempotent);
    await post(`/api/projects/${project}/apis`, { api: 'ocr' }, idempotent);
    await post('/api/accounts/acme/tokens', {}, idempotent);
    const key = await post(`/api/projects/${project}/api-keys`, {}, idempotent);
    await post(`/api/projects/${project}/api-keys/${key.keyId}:rotate`, {}, idempotent);
    const client = await post(
      `/api/projects/${project}/oauth-clients`,
      {
        clientName: 'Acme web',
        redirectUris: ['https://app.acme.test/callback'],
        grantTypes: ['authorization_code', 'refresh_token'],
      },
      idempotent,
    );
    await post(`/api/projects/${project}/oauth-clients/${client.clientId}/secrets`, {}, idempotent);
  }
  const keys = [...secrets].filter((s) => s.startsWith('lgb_key_'));
  const tokens = [...secrets].filter((s) => s.startsWith('lgb_at_'));
  t.assert.ok(
    keys.length >= 4 && tokens.length >= 3 && [...secrets].some((s) => s.startsWith('lgb_cs_')),
    `every kind created: ${secrets.size}`,
  );

  // Keys in every spelling a client can send (some authenticate, some do not; none may be logged).
  const key = keys[keys.length - 1];
  const body = { requests: [{ image: { content: 'AAAA' }, features: [{ type: 'LABEL_DETECTION' }] }] };
  for (const url of [
    `/v1/images:annotate?key=${key}`,
    `/v1/images:annotate?%6bey=${key}`,
    `/v1/images:annotate?k%65y=${key}`,
    `/v1/images:annotate?%4B%45%59=${key}`,
    `/v1/images:annotate?$alt=json;key=${key}`,
    `/v1/images:annotate?a=1&key=${encodeURIComponent(key)}&b=2`,
    `/v1/images:annotate/${key}`,
    `/v1/${key}/images:annotate`,
    `/api/projects/${encodeURIComponent(key)}`,
    `/v1/images:annotate?access_token=${tokens[0]}`,
    `/nowhere?token=${tokens[0]}`,
  ]) {
    await app.inject({ method: 'POST', url, payload: body });
  }
  await app.inject({ method: 'GET', url: '/api/accounts/acme/projects', headers: { authorization: `Bearer ${tokens[1]}` } });

  await app.close();
  const stored = ['', '-wal', '-shm', '-journal']
    .map((suffix) => `${file}${suffix}`)
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
  const logs = lines.join('');
  t.assert.ok(logs.length > 0 && stored.length > 0);
  for (const secret of secrets) {
    // The random body alone, too: a secret must not survive in any encoding that keeps it readable.
    const body62 = secret.slice(secret.lastIndexOf('_') + 1);
    t.assert.ok(!stored.includes(body62), `${secret.slice(0, 12)}… is stored in clear`);
    t.assert.ok(
      !logs.includes(body62),
      `${secret.slice(0, 12)}… is logged: ${logs
        .split('\n')
        .find((l) => l.includes(body62))
        ?.slice(0, 400)}`,
    );
  }
});
