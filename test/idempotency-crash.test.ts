import { test, type TestContext } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccountsRepository } from '../src/accounts/accounts-repository.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createTestDatabase, DIALECTS } from './helpers/dialects.ts';

/**
 * Issue 16, item 7: Idempotency-Key survives kill -9. A listening server is killed while it creates
 * API keys concurrently; after a restart every request is retried with its key until answered:
 * each Idempotency-Key yields exactly one API key, and every retry is answered 2xx.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const base = `http://127.0.0.1:${env.PORT}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

test('kill -9 during concurrent key creations: retries give exactly one key per Idempotency-Key', async (t: TestContext) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-crash-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const setup = createDatabase(`sqlite://${path.join(dir, 'legible.db')}`);
  await migrateToLatest(setup.db);
  const { secret } = await createAccountsRepository(setup.db).createAccount('acme');
  await setup.destroy();
  const env = {
    DATA_DIR: dir,
    PORT: String(20000 + Math.floor(Math.random() * 20000)),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    OCR_WARM: 'false',
    OCR_WORKERS: '1',
    IDEMPOTENCY_LOCK_TTL_MS: '1000',
    SHUTDOWN_DRAIN_MS: '0',
    DATABASE_URL: '',
  };
  const base = `http://127.0.0.1:${env.PORT}`;
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  let server = await startServer(env);
  t.after(() => server.kill('SIGKILL'));
  const project = await fetch(`${base}/api/accounts/acme/projects`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ projectId: 'crash-project' }),
  });
  t.assert.equal(project.status, 201);

  const create = (key: string) =>
    fetch(`${base}/api/projects/crash-project/api-keys`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': key },
      body: JSON.stringify({ displayName: key }),
    });
  const keys: string[] = [];
  for (let round = 0; round < 10; round++) {
    const batch = Array.from({ length: 30 }, (_, i) => `r${round}-k${i}`);
    keys.push(...batch);
    let answered = 0;
    const inFlight = batch.map((key) =>
      create(key).then(
        (r) => {
          answered += 1;
          return r.status;
        },
        () => 0,
      ),
    );
    // Kill once some creations are answered and others are still running, at a different point each round.
    const killAfter = 1 + ((round * 7) % 13);
    while (answered < killAfter) await new Promise((resolve) => setTimeout(resolve, 1));
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await Promise.all([...inFlight, exited]);
    server = await startServer(env);
  }

  if (process.env.CRASH_DEBUG) {
    const peek = createDatabase(`sqlite://${path.join(dir, 'legible.db')}`);
    const states = await peek.db.selectFrom('idempotency_keys').select(['state']).execute();
    const made = await peek.db.selectFrom('api_keys').select(['display_name']).execute();
    console.error(
      'states',
      // biome-ignore lint/performance/noAccumulatingSpread: diagnostics of a failed test, a few rows.
      states.reduce((m, r) => ({ ...m, [r.state]: ((m as any)[r.state] ?? 0) + 1 }), {}),
      'keys',
      made.length,
    );
    await peek.destroy();
  }
  // Retry everything, as a client would (IDEMPOTENCY_KEY_IN_USE until the dead node's lock expires).
  for (const key of keys) {
    let status = 0;
    for (let attempt = 0; attempt < 100; attempt++) {
      const res = await create(key);
      status = res.status;
      await res.arrayBuffer();
      if (status !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.assert.ok(status >= 200 && status < 300, `${key}: ${status}`);
  }
  const list = (await (await fetch(`${base}/api/projects/crash-project/api-keys?pageSize=1000`, { headers })).json()) as {
    apiKeys: Array<{ displayName: string }>;
  };
  const counts = new Map<string, number>();
  for (const k of list.apiKeys) counts.set(k.displayName, (counts.get(k.displayName) ?? 0) + 1);
  const wrong = keys.filter((k) => counts.get(k) !== 1).map((k) => `${k}×${counts.get(k) ?? 0}`);
  t.assert.deepEqual(wrong, [], `Idempotency-Keys without exactly one API key: ${wrong.join(', ')}`);
});

for (const dialect of DIALECTS) {
  test(`[${dialect}] a change that committed before its node died is recovered, never applied again; a taken-over claim cannot commit`, async (t: TestContext) => {
    const { createIdempotencyRepository } = await import('../src/idempotency/idempotency-repository.ts');
    const { withClaim } = await import('../src/idempotency/idempotency-context.ts');
    const { recordAudit } = await import('../src/audit/audit-log.ts');
    const database = await createTestDatabase(dialect);
    t.after(() => database.destroy());
    const repo = createIdempotencyRepository(database.db);
    const input = (now: number) => ({
      principal: 'acme',
      key: 'k1',
      fingerprint: 'f',
      now: new Date(now),
      lockTtlMs: 1000,
      retentionMs: 86_400_000,
    });
    const change = (claim: import('../src/idempotency/idempotency-repository.ts').Claim, id: string) =>
      withClaim(claim, () =>
        database.db
          .transaction()
          .execute((trx) =>
            recordAudit(trx, { accountId: 'acme', actor: 'cli', action: 'api_key.create', resourceType: 'api_key', resourceId: id }),
          ),
      );

    const first = await repo.claim(input(0));
    t.assert.equal(first.kind, 'claimed');
    if (first.kind !== 'claimed') return;
    await change(first.claim, 'key-1'); // committed; then the node dies before `complete`
    t.assert.equal((await repo.claim(input(500))).kind, 'in-flight');
    const retry = await repo.claim(input(5000));
    t.assert.deepEqual(retry, { kind: 'recovered', change: { action: 'api_key.create', resourceType: 'api_key', resourceId: 'key-1' } });

    // A slow (not dead) node whose claim was taken over cannot commit its change any more.
    const slow = await repo.claim({ ...input(10_000), key: 'k2' });
    if (slow.kind !== 'claimed') throw new Error(slow.kind);
    const takeover = await repo.claim({ ...input(20_000), key: 'k2' });
    t.assert.equal(takeover.kind, 'claimed');
    await t.assert.rejects(change(slow.claim, 'key-2'), /took over/);
    const audits = await database.db.selectFrom('audit_log').select('resource_id').execute();
    t.assert.deepEqual(
      audits.map((a) => a.resource_id),
      ['key-1'],
    );
  });
}
