import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createAccountsRepository } from '../src/accounts/accounts-repository.ts';
import { assertSetupRouteAuth, createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { classifyRoutes, fillPattern } from './helpers/registered-routes.ts';
import { webClient } from './helpers/oauth-clients-fixture.ts';

/**
 * A body each account-token route accepts, so another account's token gets past validation to the
 * ownership check (404). A new POST/PATCH route without one here fails with its name.
 */
const PAYLOADS: Record<string, unknown> = {
  'POST /api/accounts/:account/projects': { displayName: 'x' },
  'POST /api/accounts/:account/tokens': {},
  'PATCH /api/projects/:project': { displayName: 'y' },
  'POST /api/projects/:project/apis': { api: 'navigation' },
  'PATCH /api/projects/:project/apis/:api': { quota: { requestsPerMinute: 60 } },
  'POST /api/projects/:project/api-keys': {},
  'PATCH /api/projects/:project/api-keys/:keyId': { displayName: 'z' },
  'POST /api/projects/:project/api-keys/:keyId(^[A-Za-z0-9_-]+)::rotate': { graceSeconds: 0 },
  'POST /api/projects/:project/oauth-clients': webClient,
  'PATCH /api/projects/:project/oauth-clients/:clientId': { clientName: 'renamed' },
  'POST /api/projects/:project/oauth-clients/:clientId/secrets': {},
  'POST /api/projects/:project/ocr::annotate': { requests: [{ image: { content: 'AAAA' }, features: [{ type: 'LABEL_DETECTION' }] }] },
  'POST /api/projects/:project/ocr::annotateFiles': {
    requests: [{ inputConfig: { content: 'AAAA', mimeType: 'text/plain' }, features: [{ type: 'TEXT_DETECTION' }] }],
  },
};

test('every registered route is classified by the credential it takes', async (t: TestContext) => {
  const { app, routes } = await buildTestApp(t);
  await app.ready();
  const registered = classifyRoutes(routes);
  const unclassified = registered.filter((r) => r.auth === undefined).map((r) => `${r.method} ${r.url}`);
  t.assert.deepEqual(unclassified, [], 'declare `security` in the route schema, or list the route in test/helpers/registered-routes.ts');
  t.assert.ok(registered.filter((r) => r.auth === 'accountToken').length >= 30, 'the setup routes were collected');
});

for (const dialect of DIALECTS) {
  test(`[${dialect}] every registered account-token route: auth matrix and tenant isolation`, async (t: TestContext) => {
    const { app, database, routes } = await buildTestApp(t, dialect);
    await app.ready();
    const owner = await createTestAccount(database, 'acme');
    const stranger = await createTestAccount(database, 'globex');
    const accounts = createAccountsRepository(database.db);
    const extra = await accounts.createToken('acme');
    await accounts.revokeToken(extra.token.tokenId);
    const spare = await accounts.createToken('acme');
    const { projectId, keyId, keyString } = await setupProject(app, owner, 'demo-project', { apis: ['ocr'], key: { displayName: 'k' } });
    // The stranger has resources too, so a 404 is not just "nothing exists".
    await setupProject(app, stranger, 'globex-project', { apis: ['ocr'], key: {} });
    const strangerClient = await app.inject({
      method: 'POST',
      url: '/api/projects/globex-project/oauth-clients',
      headers: stranger.headers,
      payload: webClient,
    });
    t.assert.equal(strangerClient.statusCode, 201, strangerClient.body);
    const client = await app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/oauth-clients`,
      headers: owner.headers,
      payload: webClient,
    });
    t.assert.equal(client.statusCode, 201, client.body);
    const ids: Record<string, string> = {
      account: 'acme',
      project: projectId,
      api: 'ocr',
      keyId: keyId!,
      tokenId: spare.token.tokenId,
      clientId: client.json().clientId,
      secretId: client.json().clientSecretId,
    };

    const fixture = { app, owner, stranger, revokedToken: extra.secret, apiKey: keyString! };
    for (const route of classifyRoutes(routes).filter((r) => r.auth === 'accountToken')) {
      const key = `${route.method} ${route.url}`;
      if ((route.method === 'POST' || route.method === 'PATCH') && !(key in PAYLOADS)) {
        t.assert.fail(`${key}: add a valid body to PAYLOADS in test/route-auth-matrix.test.ts`);
      }
      await assertSetupRouteAuth(t, fixture, {
        method: route.method as 'GET',
        url: fillPattern(route.url, ids),
        payload: PAYLOADS[key],
        // A route that names no account or project (`GET /api/apis`, `GET /api/whoami`) answers any account.
        tenantScoped: /:(account|project)\b/.test(route.url),
      });
    }
  });
}
