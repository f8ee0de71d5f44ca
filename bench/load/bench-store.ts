import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PG_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const REDIS_URL = process.env.REDIS_URL;
/** The `SECRET_PEPPER` the benchmarks' servers run with (the account token is hashed with it). */
export const PEPPER = 'bench-pepper-0123456789abcdef';

export interface BenchStore {
  /** What a server needs to use the store (`DATA_DIR`, or `DATABASE_URL` and Redis). */
  env: Record<string, string>;
  token: string;
  accountId: string;
  drop(): Promise<void>;
}

/**
 * A store for a benchmark run, with an account and its token: a fresh PostgreSQL database (and a
 * Redis key prefix) when `DATABASE_URL` is `postgres://…`, or else an SQLite file in a temp dir.
 */
export async function createStore(): Promise<BenchStore> {
  const accountId = 'bench';
  if (PG_URL) {
    const name = `lgbench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    const handle = createDatabase(u.toString());
    await migrateToLatest(handle.db);
    const { secret } = await createAccountsRepository(handle.db, { pepper: PEPPER }).createAccount(accountId);
    await handle.destroy();
    return {
      env: { DATABASE_URL: u.toString(), ...(REDIS_URL ? { REDIS_URL, REDIS_KEY_PREFIX: `${name}:` } : {}) },
      token: secret,
      accountId,
      async drop() {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(ROOT, '.tmp-bench-'));
  const handle = createDatabase(`sqlite://${path.join(dir, 'legible.db')}`);
  await migrateToLatest(handle.db);
  const { secret } = await createAccountsRepository(handle.db, { pepper: PEPPER }).createAccount(accountId);
  await handle.destroy();
  return { env: { DATA_DIR: dir }, token: secret, accountId, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** One call of the JSON API with the account token; a status ≥ 300 throws. */
export async function api(base: string, token: string, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** One project with ocr enabled (quota out of the way) and its key; optionally ocr disabled afterwards. */
export async function projectKey(base: string, token: string, accountId: string, disableOcr: boolean): Promise<string> {
  const { projectId } = await api(base, token, 'POST', `/api/accounts/${accountId}/projects`, {});
  await api(base, token, 'POST', `/api/projects/${projectId}/apis`, { api: 'ocr' });
  await api(base, token, 'PATCH', `/api/projects/${projectId}/apis/ocr`, { quota: { requestsPerMinute: 1_000_000 } });
  const { keyString } = await api(base, token, 'POST', `/api/projects/${projectId}/api-keys`, { displayName: 'bench' });
  if (disableOcr) await api(base, token, 'DELETE', `/api/projects/${projectId}/apis/ocr`);
  return keyString;
}
