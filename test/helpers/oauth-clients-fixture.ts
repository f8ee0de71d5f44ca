import type { TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/tables.ts';
import type { Dialect } from '../../src/db/database.ts';
import type { Env } from '../../src/config.ts';
import { buildTestApp } from './build-test-app.ts';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';
import { createProjectsRepository } from '../../src/projects/projects-repository.ts';

export interface OAuthFixture {
  app: FastifyInstance;
  db: Kysely<Database>;
  /** `acme` owns project `acme-app`; `globex` owns `globex-app`. */
  tokenA: string;
  tokenB: string;
  /** Injects as account acme (or with `token`), JSON in and out. */
  call(method: InjectOptions['method'], url: string, body?: unknown, token?: string): Promise<LightMyRequestResponse>;
}

/** Test-only: an app with two accounts, each with one project, seeded through the real repositories. */
export async function oauthFixture(t: TestContext, dialect: Dialect, env: Env = {}): Promise<OAuthFixture> {
  const { app, database } = await buildTestApp(t, dialect, env);
  const db = database.db;
  const accounts = createAccountsRepository(db, { pepper: env.SECRET_PEPPER });
  const a = await accounts.createAccount('acme');
  const b = await accounts.createAccount('globex');
  const projects = createProjectsRepository(db);
  await projects.create({ accountId: 'acme', actor: 'cli' }, { projectId: 'acme-app', displayName: 'Acme app' });
  await projects.create({ accountId: 'globex', actor: 'cli' }, { projectId: 'globex-app', displayName: 'Globex app' });
  return {
    app,
    db,
    tokenA: a.secret,
    tokenB: b.secret,
    call: (method, url, body, token = a.secret) =>
      app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      }),
  };
}

/** A valid confidential web client body. */
export const webClient = {
  clientName: 'Acme web',
  redirectUris: ['https://app.acme.test/callback'],
  grantTypes: ['authorization_code', 'refresh_token'],
} as const;

/** Asserts Google's envelope (API.md §4) and returns its `error`. */
export function envelope(res: { statusCode: number; json(): any }): { code: number; status: string; message: string; details?: any[] } {
  const body = res.json();
  if (
    !body?.error ||
    body.error.code !== res.statusCode ||
    typeof body.error.status !== 'string' ||
    typeof body.error.message !== 'string'
  ) {
    throw new Error(`not Google's envelope (${res.statusCode}): ${JSON.stringify(body)}`);
  }
  return body.error;
}

/** The `fieldViolations[].field` of a 400. */
export function violatedFields(res: { statusCode: number; json(): any }): string[] {
  const bad = envelope(res).details?.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
  return (bad?.fieldViolations ?? []).map((v: { field: string }) => v.field);
}
