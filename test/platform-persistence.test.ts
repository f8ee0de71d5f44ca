import { test, type TestContext } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { tempDir } from './helpers/temp-dir.ts';

/** An app on a SQLite file in `dir`, logging every line into `logs`. */
async function openApp(dir: string, logs: string[], env: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'debug', OCR_WORKERS: '1', ...env });
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, logStream: { write: (line: string) => void logs.push(line) } });
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

test('after a restart on the same SQLite file, accounts, projects, apis and keys are all still there', async (t: TestContext) => {
  const dir = tempDir('legible-platform-');
  const logs: string[] = [];
  const first = await openApp(dir, logs);
  const acme = await createTestAccount(first.database, 'acme');
  const { keyId, keyString } = await setupProject(first.app, acme, 'demo-project', { apis: ['ocr'], key: { displayName: 'kept' } });
  await first.close();

  const second = await openApp(dir, logs);
  t.after(() => second.close());
  const project = await second.app.inject({ url: '/api/projects/demo-project', headers: acme.headers });
  t.assert.equal(project.statusCode, 200, 'the account token still works');
  t.assert.equal(project.json().state, 'ACTIVE');
  const key = await second.app.inject({ url: `/api/projects/demo-project/api-keys/${keyId}`, headers: acme.headers });
  t.assert.equal(key.json().displayName, 'kept');
  const apis = await second.app.inject({ url: '/api/projects/demo-project/apis', headers: acme.headers });
  t.assert.equal(apis.json().apis.find((a: { api: string }) => a.api === 'ocr').state, 'ENABLED');
  const verified = await second.app.keyVerifier.verify({ authorization: `Bearer ${keyString}`, ip: '127.0.0.1' }, 'ocr');
  t.assert.equal(verified.ok && verified.key.keyId, keyId);
  const audit = await second.app.inject({ url: '/api/accounts/acme/audit-log', headers: acme.headers });
  t.assert.ok(audit.json().entries.length >= 5);
});

test('no key or token in plaintext in the data directory or the server log', async (t: TestContext) => {
  const dir = tempDir('legible-platform-');
  const logs: string[] = [];
  const { app, database, close } = await openApp(dir, logs, { SECRET_PEPPER: 'a-pepper-of-at-least-16-chars' });
  t.after(close);
  const secrets: string[] = [];
  const acme = await createTestAccount(database, 'acme', 'a-pepper-of-at-least-16-chars');
  secrets.push(acme.token);
  const { keyId, keyString } = await setupProject(app, acme, 'demo-project', { apis: ['ocr'], key: {} });
  secrets.push(keyString!);
  const rotated = await app.inject({
    method: 'POST',
    url: `/api/projects/demo-project/api-keys/${keyId}:rotate`,
    headers: acme.headers,
    payload: { graceSeconds: 60 },
  });
  secrets.push(rotated.json().keyString);
  // Secrets in every place a client may put them, including wrong ones and error paths.
  for (const secret of secrets) {
    await app.inject({ url: `/api/projects/demo-project?key=${secret}`, headers: { 'x-goog-api-key': secret } });
    await app.inject({ url: '/api/projects/demo-project', headers: { authorization: `Bearer ${secret}` } });
    await app.inject({ method: 'POST', url: `/api/vision/v1/images:annotate?key=${secret}`, payload: { requests: [] } });
    await app.inject({
      method: 'POST',
      url: `/v1/images:annotate?key=${secret}&x=1`,
      headers: { 'x-goog-api-key': secret },
      payload: '{bad',
    });
    await app.inject({ url: `/no/such/route?key=${secret}` });
  }
  await app.keyVerifier.flush();
  t.assert.ok(logs.length > 10, 'logs were captured');
  const logText = logs.join('');
  const files = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f)));
  t.assert.ok(files.length >= 1);
  for (const secret of secrets) {
    t.assert.ok(!logText.includes(secret), 'secret found in the log');
    const body = secret.slice(secret.lastIndexOf('_') + 1);
    t.assert.ok(!logText.includes(body), 'secret body found in the log');
    for (const bytes of files) t.assert.equal(bytes.indexOf(body), -1, 'secret found in the data directory');
  }
});
