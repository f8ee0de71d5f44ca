import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createAccountsRepository } from '../src/accounts/accounts-repository.ts';
import { assertOwnerSucceeds, createTestAccount, platformSetupRoutes, setupProject } from './helpers/common-route-tests.ts';

for (const dialect of DIALECTS) {
  // The auth matrix and tenant isolation run over the registered routes: test/route-auth-matrix.test.ts.
  test(`[${dialect}] every setup route succeeds for its owner`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const owner = await createTestAccount(database, 'acme');
    const accounts = createAccountsRepository(database.db);
    const { projectId, keyId } = await setupProject(app, owner, 'demo-project', { apis: ['ocr'], key: { displayName: 'k' } });
    const spare = await accounts.createToken('acme');
    await assertOwnerSucceeds(
      t,
      app,
      owner,
      platformSetupRoutes({ accountId: 'acme', projectId, keyId: keyId!, spareTokenId: spare.token.tokenId }),
    );
  });
}

test('OpenAPI documents every platform route with tags and the account-token security scheme', async (t: TestContext) => {
  const { app } = await buildTestApp(t);
  const spec = (await app.inject('/openapi.json')).json() as {
    paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
  };
  const expected = [
    'post /api/accounts/{account}/projects',
    'get /api/accounts/{account}/projects',
    'get /api/accounts/{account}/audit-log',
    'get /api/projects/{project}',
    'patch /api/projects/{project}',
    'delete /api/projects/{project}',
    'get /api/apis',
    'post /api/projects/{project}/apis',
    'get /api/projects/{project}/apis',
    'get /api/projects/{project}/apis/{api}',
    'patch /api/projects/{project}/apis/{api}',
    'delete /api/projects/{project}/apis/{api}',
    'post /api/projects/{project}/api-keys',
    'get /api/projects/{project}/api-keys',
    'get /api/projects/{project}/api-keys/{keyId}',
    'patch /api/projects/{project}/api-keys/{keyId}',
    'delete /api/projects/{project}/api-keys/{keyId}',
    'post /api/projects/{project}/api-keys/{keyId}:rotate',
    'get /api/accounts/{account}/tokens',
    'post /api/accounts/{account}/tokens',
    'delete /api/accounts/{account}/tokens/{tokenId}',
  ];
  for (const route of expected) {
    const [method, p] = route.split(' ');
    const op = spec.paths[p]?.[method];
    t.assert.ok(op, `${route} is documented`);
    t.assert.ok(op.tags?.length, `${route} has tags`);
    t.assert.deepEqual(op.security, [{ accountToken: [] }], `${route} declares its credential`);
  }
});

for (const dialect of DIALECTS) {
  test(`[${dialect}] account tokens over HTTP: create (shown once), list hints only, revoke applies to the next request`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const owner = await createTestAccount(database, 'acme');
    const created = await app.inject({ method: 'POST', url: '/api/accounts/acme/tokens', headers: owner.headers });
    t.assert.equal(created.statusCode, 201);
    const { token, tokenInfo } = created.json();
    t.assert.match(token, /^lgb_at_/);
    const h = { authorization: `Bearer ${token}` };
    const list = await app.inject({ url: '/api/accounts/acme/tokens?pageSize=1', headers: h });
    t.assert.equal(list.json().tokens.length, 1);
    t.assert.ok(list.json().nextPageToken);
    t.assert.ok(!list.body.includes(token) && !list.body.includes(owner.token));
    const revoked = await app.inject({ method: 'DELETE', url: `/api/accounts/acme/tokens/${tokenInfo.tokenId}`, headers: h });
    t.assert.equal(revoked.statusCode, 200);
    t.assert.ok(revoked.json().revokeTime);
    const after = await app.inject({ url: '/api/accounts/acme/tokens', headers: h });
    t.assert.equal(after.statusCode, 401);
    const remaining = await app.inject({ url: '/api/accounts/acme/tokens', headers: owner.headers });
    t.assert.deepEqual(
      remaining.json().tokens.map((x: { tokenId: string }) => x.tokenId),
      [owner.tokenId],
    );
    const audit = await app.inject({ url: '/api/accounts/acme/audit-log?pageSize=2', headers: owner.headers });
    t.assert.deepEqual(
      audit.json().entries.map((e: { action: string }) => e.action),
      ['account_token.revoke', 'account_token.create'],
    );
  });
}
