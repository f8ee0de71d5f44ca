import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';

for (const dialect of DIALECTS) {
  test(`[${dialect}] health, readiness and the error envelope`, async (t: TestContext) => {
    const { app } = await buildTestApp(t, dialect);
    t.assert.equal((await app.inject('/healthz')).statusCode, 200);
    t.assert.equal((await app.inject('/readyz')).statusCode, 200);

    const missing = await app.inject('/no/such/route?key=secret');
    t.assert.equal(missing.statusCode, 404);
    t.assert.equal(missing.json().error.status, 'NOT_FOUND');
    t.assert.ok(!missing.body.includes('secret'));

    const badJson = await app.inject({ method: 'POST', url: '/healthz', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    t.assert.equal(badJson.statusCode, 400);
    t.assert.equal(badJson.json().error.status, 'INVALID_ARGUMENT');

    // curl -X DELETE -H 'Content-Type: application/json' sends no body: that is "no body", not bad JSON.
    const emptyDelete = await app.inject({
      method: 'DELETE',
      url: '/api/projects/some-project',
      headers: { 'content-type': 'application/json' },
    });
    t.assert.equal(emptyDelete.statusCode, 401);
    t.assert.equal(emptyDelete.json().error.details[0].reason, 'CREDENTIALS_MISSING');

    const spec = (await app.inject('/openapi.json')).json();
    t.assert.equal(spec.openapi.startsWith('3.'), true);
  });
}
