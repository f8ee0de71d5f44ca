import type { TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';

/**
 * Shared by every setup-route suite (Unkey's `common-tests.ts` pattern): fixtures that create an
 * account through the same repository as the CLI, and the authentication/tenant-isolation matrix
 * every route protected by an account token must pass.
 */

export interface TestAccount {
  accountId: string;
  token: string;
  tokenId: string;
  headers: { authorization: string };
}

export async function createTestAccount(database: DatabaseHandle, accountId: string, pepper?: string): Promise<TestAccount> {
  const { token, secret } = await createAccountsRepository(database.db, { pepper }).createAccount(accountId);
  return { accountId, token: secret, tokenId: token.tokenId, headers: { authorization: `Bearer ${secret}` } };
}

/** Asserts Google's error envelope with the given HTTP status and (optionally) ErrorInfo reason. */
export function assertError(t: TestContext, res: LightMyRequestResponse, http: number, reason?: string): void {
  t.assert.equal(res.statusCode, http, `expected ${http}${reason ? ` ${reason}` : ''}, got ${res.statusCode}: ${res.body.slice(0, 300)}`);
  const body = res.json() as { error?: { code?: number; status?: string; message?: string; details?: Array<Record<string, unknown>> } };
  t.assert.equal(body.error?.code, http);
  t.assert.equal(typeof body.error?.status, 'string');
  t.assert.equal(typeof body.error?.message, 'string');
  if (reason) {
    const info = body.error?.details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
    t.assert.equal(info?.reason, reason, `reason in ${res.body.slice(0, 300)}`);
  }
}

/** A project with the given apis enabled, and optionally an API key. */
export async function setupProject(
  app: FastifyInstance,
  account: TestAccount,
  projectId: string,
  opts: { apis?: string[]; key?: Record<string, unknown> } = {},
): Promise<{ projectId: string; keyId?: string; keyString?: string }> {
  const created = await app.inject({
    method: 'POST',
    url: `/api/accounts/${account.accountId}/projects`,
    headers: account.headers,
    payload: { projectId },
  });
  if (created.statusCode !== 201) throw new Error(`project create failed: ${created.body}`);
  for (const api of opts.apis ?? []) {
    const r = await app.inject({ method: 'POST', url: `/api/projects/${projectId}/apis`, headers: account.headers, payload: { api } });
    if (r.statusCode !== 200) throw new Error(`enable failed: ${r.body}`);
  }
  if (!opts.key) return { projectId };
  const key = await app.inject({ method: 'POST', url: `/api/projects/${projectId}/api-keys`, headers: account.headers, payload: opts.key });
  if (key.statusCode !== 201) throw new Error(`key create failed: ${key.body}`);
  return { projectId, keyId: key.json().keyId, keyString: key.json().keyString };
}

export interface SetupRoute {
  method: NonNullable<InjectOptions['method']>;
  url: string;
  payload?: unknown;
  /** False for routes that name no account-owned resource (`GET /api/apis`): another account's token succeeds there. */
  tenantScoped: boolean;
}

/** Calls each route, in order, with the owner's token and asserts a 2xx (mutations should come last). */
export async function assertOwnerSucceeds(
  t: TestContext,
  app: FastifyInstance,
  owner: TestAccount,
  routes: readonly SetupRoute[],
): Promise<void> {
  for (const route of routes) {
    const ok = await app.inject({
      method: route.method,
      url: route.url,
      headers: owner.headers,
      ...(route.payload === undefined ? {} : { payload: route.payload as object }),
    });
    t.assert.ok(
      ok.statusCode >= 200 && ok.statusCode < 300,
      `${route.method} ${route.url} as owner → ${ok.statusCode} ${ok.body.slice(0, 200)}`,
    );
  }
}

/** Every setup route of the platform, filled in with ids owned by the fixture account. */
export function platformSetupRoutes(ids: { accountId: string; projectId: string; keyId: string; spareTokenId?: string }): SetupRoute[] {
  const { accountId, projectId, keyId, spareTokenId } = ids;
  const key = `/api/projects/${projectId}/api-keys/${keyId}`;
  return [
    { method: 'GET', url: '/api/apis', tenantScoped: false },
    { method: 'POST', url: `/api/accounts/${accountId}/projects`, payload: { displayName: 'x' }, tenantScoped: true },
    { method: 'GET', url: `/api/accounts/${accountId}/projects`, tenantScoped: true },
    { method: 'GET', url: `/api/accounts/${accountId}/audit-log`, tenantScoped: true },
    { method: 'GET', url: `/api/accounts/${accountId}/tokens`, tenantScoped: true },
    { method: 'POST', url: `/api/accounts/${accountId}/tokens`, payload: {}, tenantScoped: true },
    ...(spareTokenId ? [{ method: 'DELETE' as const, url: `/api/accounts/${accountId}/tokens/${spareTokenId}`, tenantScoped: true }] : []),
    { method: 'GET', url: `/api/projects/${projectId}`, tenantScoped: true },
    { method: 'PATCH', url: `/api/projects/${projectId}`, payload: { displayName: 'y' }, tenantScoped: true },
    { method: 'POST', url: `/api/projects/${projectId}/apis`, payload: { api: 'navigation' }, tenantScoped: true },
    { method: 'GET', url: `/api/projects/${projectId}/apis`, tenantScoped: true },
    { method: 'GET', url: `/api/projects/${projectId}/apis/ocr`, tenantScoped: true },
    { method: 'PATCH', url: `/api/projects/${projectId}/apis/ocr`, payload: { quota: { requestsPerMinute: 60 } }, tenantScoped: true },
    { method: 'POST', url: `/api/projects/${projectId}/api-keys`, payload: {}, tenantScoped: true },
    { method: 'GET', url: `/api/projects/${projectId}/api-keys`, tenantScoped: true },
    { method: 'GET', url: `/api/projects/${projectId}/operations`, tenantScoped: true },
    { method: 'GET', url: key, tenantScoped: true },
    { method: 'PATCH', url: key, payload: { displayName: 'z' }, tenantScoped: true },
    { method: 'POST', url: `${key}:rotate`, payload: { graceSeconds: 0 }, tenantScoped: true },
    { method: 'DELETE', url: `/api/projects/${projectId}/apis/navigation`, tenantScoped: true },
    { method: 'DELETE', url: key, tenantScoped: true },
    { method: 'DELETE', url: `/api/projects/${projectId}`, tenantScoped: true },
  ];
}

export interface AuthMatrixFixture {
  app: FastifyInstance;
  /** The account that owns the route's resources. */
  owner: TestAccount;
  /** A second, unrelated account. */
  stranger: TestAccount;
  /** A token of `owner` that has been revoked. */
  revokedToken: string;
  /** A working API key of one of owner's projects. */
  apiKey: string;
}

function tamper(secret: string): string {
  const last = secret.at(-1) === 'a' ? 'b' : 'a';
  return secret.slice(0, -1) + last;
}

/**
 * The matrix every setup route must pass, run before the route's own success case so it never
 * mutates anything: no credential → 401 CREDENTIALS_MISSING; garbage, a tampered checksum or a
 * revoked token → 401 ACCESS_TOKEN_INVALID; an API key (as Bearer, X-Goog-Api-Key or ?key=) → 401
 * ACCESS_TOKEN_TYPE_UNSUPPORTED; another account's token → 404 NOT_FOUND.
 */
export async function assertSetupRouteAuth(t: TestContext, f: AuthMatrixFixture, route: SetupRoute): Promise<void> {
  const send = (headers: Record<string, string>, url = route.url) =>
    f.app.inject({ method: route.method, url, headers, ...(route.payload === undefined ? {} : { payload: route.payload as object }) });
  const label = `${route.method} ${route.url}`;
  await t.test(`${label}: no credential`, async (t: TestContext) => assertError(t, await send({}), 401, 'CREDENTIALS_MISSING'));
  await t.test(`${label}: malformed token`, async (t: TestContext) => {
    assertError(t, await send({ authorization: 'Bearer not-a-token' }), 401, 'ACCESS_TOKEN_INVALID');
    assertError(t, await send({ authorization: 'Basic dXNlcjpwYXNz' }), 401, 'ACCESS_TOKEN_INVALID');
  });
  await t.test(`${label}: tampered checksum`, async (t: TestContext) => {
    assertError(t, await send({ authorization: `Bearer ${tamper(f.owner.token)}` }), 401, 'ACCESS_TOKEN_INVALID');
  });
  await t.test(`${label}: revoked token`, async (t: TestContext) => {
    assertError(t, await send({ authorization: `Bearer ${f.revokedToken}` }), 401, 'ACCESS_TOKEN_INVALID');
  });
  await t.test(`${label}: API key instead of an account token`, async (t: TestContext) => {
    assertError(t, await send({ authorization: `Bearer ${f.apiKey}` }), 401, 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
    assertError(t, await send({ 'x-goog-api-key': f.apiKey }), 401, 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
    const sep = route.url.includes('?') ? '&' : '?';
    assertError(t, await send({}, `${route.url}${sep}key=${f.apiKey}`), 401, 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
  });
  if (route.tenantScoped) {
    await t.test(`${label}: another account's token`, async (t: TestContext) =>
      assertError(t, await send(f.stranger.headers), 404, 'NOT_FOUND'),
    );
  }
}
