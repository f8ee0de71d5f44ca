import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** PostgreSQL and Redis for the multi-process suite; both must be set (`.ci/run` sets them). */
export const CLUSTER_POSTGRES_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
export const CLUSTER_REDIS_URL = process.env.REDIS_URL?.startsWith('redis') ? process.env.REDIS_URL : undefined;
export const CLUSTER_SKIP =
  CLUSTER_POSTGRES_URL && CLUSTER_REDIS_URL
    ? false
    : 'multi-node tests need DATABASE_URL=postgres://… and REDIS_URL=redis://… (.ci/run sets both)';

export const CLUSTER_PEPPER = 'cluster-test-pepper-0123456789';

/** The same server URL with another database name. */
export function withDatabase(url: string, database: string, port?: number): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (port !== undefined) u.port = String(port);
  return u.toString();
}

/**
 * A fresh PostgreSQL database of its own (LISTEN/NOTIFY channels are per database, so parallel
 * test files never hear each other), migrated, with one account; dropped by `drop()`.
 */
export async function createClusterDatabase(): Promise<{
  name: string;
  url: string;
  token: string;
  accountId: string;
  drop(): Promise<void>;
}> {
  const name = `lgc_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: CLUSTER_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(CLUSTER_POSTGRES_URL!, name);
  const handle = createDatabase(url);
  await migrateToLatest(handle.db);
  const accountId = `acct-${crypto.randomBytes(3).toString('hex')}`;
  const { secret } = await createAccountsRepository(handle.db, { pepper: CLUSTER_PEPPER }).createAccount(accountId, 'cli');
  await handle.destroy();
  return {
    name,
    url,
    token: secret,
    accountId,
    async drop() {
      const c = new pg.Client({ connectionString: CLUSTER_POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface ClusterNode {
  readonly url: string;
  readonly process: ChildProcess;
  /** Every log line so far (pino JSON). */
  readonly logs: string[];
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Spawns `node --import tsx src/main.ts` on a free port; resolves once it listens. */
export async function startNode(env: Record<string, string>): Promise<ClusterNode> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SECRET_PEPPER: CLUSTER_PEPPER,
      OCR_WORKERS: '1',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        if (process.env.CLUSTER_DEBUG) process.stderr.write(`[node] ${line.slice(0, 600)}\n`);
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (m) resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`node exited (${code}) before listening:\n${logs.slice(-20).join('\n')}`)));
  });
  return {
    url,
    process: child,
    logs,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

export interface HttpResult {
  status: number;
  headers: Headers;
  body: any;
}

export async function call(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (e.g. /metrics)
  }
  return { status: res.status, headers: res.headers, body };
}

let tinyImage: string | undefined;

/** A 64×32 white PNG with a black bar: OCR on it takes milliseconds. Base64. */
export async function tinyImageBase64(): Promise<string> {
  tinyImage ??= (
    await sharp({ create: { width: 64, height: 32, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 40, height: 8, channels: 3, background: '#000000' } }, left: 12, top: 12 }])
      .png()
      .toBuffer()
  ).toString('base64');
  return tinyImage;
}

/** One OCR call with the tiny image. */
export async function ocr(base: string, key: string): Promise<HttpResult> {
  return call(base, 'POST', '/v1/images:annotate', {
    headers: { 'x-goog-api-key': key },
    body: { requests: [{ image: { content: await tinyImageBase64() }, features: [{ type: 'TEXT_DETECTION' }] }] },
  });
}

/**
 * Polls `probe` until it returns true; resolves with the milliseconds it took (measured from the
 * call), or throws after `timeoutMs`.
 */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A project with ocr enabled and one key, made through `base`; returns ids and the key string. */
export async function setupProject(base: string, token: string, accountId: string, opts: { keyBody?: Record<string, unknown> } = {}) {
  const projectId = `p-${crypto.randomBytes(4).toString('hex')}`;
  const project = await call(base, 'POST', `/api/accounts/${accountId}/projects`, { token, body: { projectId } });
  if (project.status !== 201) throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
  const api = await call(base, 'POST', `/api/projects/${projectId}/apis`, { token, body: { api: 'ocr' } });
  if (api.status >= 300) throw new Error(`enable: ${api.status} ${JSON.stringify(api.body)}`);
  const key = await call(base, 'POST', `/api/projects/${projectId}/api-keys`, { token, body: opts.keyBody ?? { displayName: 'k' } });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  return { projectId, keyId: key.body.keyId as string, keyString: key.body.keyString as string };
}
