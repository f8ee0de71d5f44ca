import { test, type TestContext } from 'node:test';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { buildTestApp } from '../../test/helpers/build-test-app.ts';
import { assertOwnerSucceeds, createTestAccount, setupProject, type SetupRoute } from '../../test/helpers/common-route-tests.ts';
import { webClient } from '../../test/helpers/oauth-clients-fixture.ts';

/** Every OAuth client route, filled in with ids owned by the fixture account; mutations last. */
function oauthClientRoutes(projectId: string, clientId: string, secretId: string): SetupRoute[] {
  const client = `/api/projects/${projectId}/oauth-clients/${clientId}`;
  return [
    { method: 'POST', url: `/api/projects/${projectId}/oauth-clients`, payload: webClient, tenantScoped: true },
    { method: 'GET', url: `/api/projects/${projectId}/oauth-clients`, tenantScoped: true },
    { method: 'GET', url: client, tenantScoped: true },
    { method: 'PATCH', url: client, payload: { clientName: 'renamed' }, tenantScoped: true },
    { method: 'POST', url: `${client}/secrets`, payload: {}, tenantScoped: true },
    { method: 'GET', url: `${client}/secrets`, tenantScoped: true },
    { method: 'DELETE', url: `${client}/secrets/${secretId}`, tenantScoped: true },
    { method: 'DELETE', url: client, tenantScoped: true },
  ];
}

for (const dialect of DIALECTS) {
  // The auth matrix and tenant isolation run over the registered routes: test/route-auth-matrix.test.ts.
  test(`[${dialect}] every OAuth client route succeeds for its owner`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const owner = await createTestAccount(database, 'acme');
    const { projectId } = await setupProject(app, owner, 'demo-project', { apis: ['ocr'], key: {} });
    const created = await app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/oauth-clients`,
      headers: owner.headers,
      payload: webClient,
    });
    const { clientId, clientSecretId } = created.json();

    await assertOwnerSucceeds(t, app, owner, oauthClientRoutes(projectId, clientId, clientSecretId));
  });

  test(`[${dialect}] Idempotency-Key replays a create without the one-time secret, and never stores it`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const owner = await createTestAccount(database, 'acme');
    await setupProject(app, owner, 'demo-project');
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/projects/demo-project/oauth-clients',
        headers: { ...owner.headers, 'idempotency-key': 'create-web-client-1' },
        payload: webClient,
      });
    const first = await send();
    t.assert.equal(first.statusCode, 201);
    const replay = await send();
    t.assert.equal(replay.statusCode, 201);
    t.assert.equal(replay.headers['idempotent-replayed'], 'true');
    t.assert.equal(replay.json().clientId, first.json().clientId);
    t.assert.equal(replay.json().clientSecret, undefined);
    t.assert.ok(replay.json().secretUnavailable);
    const count = await database.db
      .selectFrom('oauth_clients')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    t.assert.equal(Number(count.n), 1);
    const stored = await database.db.selectFrom('idempotency_keys').selectAll().execute();
    t.assert.ok(!JSON.stringify(stored).includes(first.json().clientSecret), 'the idempotency store never holds the secret');
  });
}
