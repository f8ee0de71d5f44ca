import { test, type TestContext } from 'node:test';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Env } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { POSTGRES_URL } from './helpers/dialects.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Runs `node bin/legible.js …` without blocking the event loop (the app under test shares it). */
function cli(env: Env, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/legible.js'), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
        encoding: 'utf8',
        timeout: 120_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

/** The stores the CLI is run against: a fresh SQLite DATA_DIR, and a fresh PostgreSQL schema when DATABASE_URL is set. */
async function stores(t: TestContext): Promise<Array<{ name: string; env: Env }>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-cli-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const list = [{ name: 'sqlite', env: { DATA_DIR: dir } as Env }];
  if (POSTGRES_URL) {
    const schema = `cli_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    t.after(async () => {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    });
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    list.push({ name: 'postgres', env: { DATA_DIR: dir, DATABASE_URL: url.toString() } });
  }
  return list;
}

test('CLI: accounts create / tokens create / tokens revoke, then the server uses the same store over HTTP', async (t: TestContext) => {
  for (const store of await stores(t)) {
    await t.test(store.name, async (t: TestContext) => {
      const created = await cli(store.env, 'accounts', 'create', 'acme', '--json');
      t.assert.equal(created.code, 0, created.stderr);
      const out = JSON.parse(created.stdout);
      t.assert.deepEqual(Object.keys(out).sort(), ['account', 'token']);
      t.assert.equal(out.account.accountId, 'acme');
      t.assert.match(out.token, /^lgb_at_/);

      const human = await cli(store.env, 'accounts', 'create', 'globex');
      t.assert.equal(human.code, 0, human.stderr);
      t.assert.match(human.stdout, /Created account globex/);
      t.assert.match(human.stdout, /lgb_at_/);

      const failures: Array<[string[], RegExp]> = [
        [['accounts', 'create', 'acme'], /already exists/],
        [['accounts', 'create', 'Bad_Id'], /Invalid account id/],
        [['accounts', 'create', 'ab'], /Invalid account id/],
        [['accounts', 'create'], /usage/],
        [['tokens', 'create', '--account', 'nobody'], /not found/],
        [['tokens', 'create'], /usage/],
        [['tokens', 'revoke', 'tok-nope'], /not found/],
        [['tokens', 'create', '--account', 'acme', '--bogus'], /unknown option --bogus/],
      ];
      const results = await Promise.all(failures.map(([args]) => cli(store.env, ...args)));
      for (const [i, [args, message]] of failures.entries()) {
        const r = results[i];
        t.assert.notEqual(r.code, 0, `${args.join(' ')} should fail`);
        t.assert.match(r.stderr, message, args.join(' '));
        t.assert.equal(r.stdout, '');
      }

      const second = await cli(store.env, 'tokens', 'create', '--account', 'acme', '--json');
      t.assert.equal(second.code, 0, second.stderr);
      const { token: secondToken, tokenId } = JSON.parse(second.stdout);

      const config = loadConfig({ ...store.env, LOG_LEVEL: 'silent', OCR_WORKERS: '1' });
      const database = createDatabase(config.databaseUrl);
      const app = await buildApp({ config, database });
      t.after(async () => {
        await app.close();
        await database.destroy();
      });
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const call = (token: string) =>
        fetch(`${base}/api/accounts/acme/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ displayName: 'From the CLI token' }),
        });
      t.assert.equal((await call(out.token)).status, 201);
      t.assert.equal((await call(secondToken)).status, 201);

      const revoked = await cli(store.env, 'tokens', 'revoke', tokenId);
      t.assert.equal(revoked.code, 0, revoked.stderr);
      const refused = await call(secondToken);
      t.assert.equal(refused.status, 401, 'revoked by the CLI: refused on the next request');
      t.assert.equal((await refused.json()).error.details[0].reason, 'ACCESS_TOKEN_INVALID');
      t.assert.equal((await call(out.token)).status, 201, 'the other token is untouched');
    });
  }
});
