import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount } from './helpers/common-route-tests.ts';

/**
 * Over a real listening socket: the walk-through and every refusal a client can meet on the OCR
 * route and the setup routes. (OCR results themselves are the Vision
 * suites' business; every outcome here is decided before an image is read.)
 */
for (const dialect of DIALECTS) {
  test(`[${dialect}] walk-through refusals over real HTTP`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const globex = await createTestAccount(database, 'globex');
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const json = { 'content-type': 'application/json' };
    const setup = async (method: string, path: string, token: string, body?: unknown) => {
      const headers = { ...(body ? json : {}), authorization: `Bearer ${token}` };
      const res = await fetch(`${base}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, body: await res.json() };
    };
    const ocr = async (headers: Record<string, string>, query = '') => {
      const res = await fetch(`${base}/api/vision/v1/images:annotate${query}`, {
        method: 'POST',
        headers: { ...json, ...headers },
        body: JSON.stringify({ requests: [{ image: { content: 'iVBORw0KGgo=' }, features: [{ type: 'TEXT_DETECTION' }] }] }),
      });
      const body = await res.json();
      return {
        status: res.status,
        reason: body.error?.details?.find((d: { reason?: string }) => d.reason)?.reason as string | undefined,
        message: body.error?.message as string,
      };
    };

    t.assert.equal((await setup('POST', '/api/accounts/acme/projects', acme.token, { projectId: 'demo-project' })).status, 201);
    const early = await setup('POST', '/api/projects/demo-project/api-keys', acme.token, {});
    t.assert.equal(early.status, 201);

    const disabled = await ocr({ authorization: `Bearer ${early.body.keyString}` });
    t.assert.deepEqual([disabled.status, disabled.reason], [403, 'SERVICE_DISABLED'], 'OCR not enabled');
    t.assert.match(disabled.message, /POST \/api\/projects\/demo-project\/apis/);

    t.assert.equal((await setup('POST', '/api/projects/demo-project/apis', acme.token, { api: 'ocr' })).body.state, 'ENABLED');
    const nav = (await setup('POST', '/api/projects/demo-project/api-keys', acme.token, { restrictions: { services: ['navigation'] } }))
      .body.keyString;
    const key = (await setup('POST', '/api/projects/demo-project/api-keys', acme.token, {})).body;

    t.assert.deepEqual(Object.values(await ocr({})).slice(0, 2), [401, 'CREDENTIALS_MISSING'], 'no credential');
    const tampered = `${key.keyString.slice(0, -1)}${key.keyString.endsWith('a') ? 'b' : 'a'}`;
    t.assert.deepEqual(
      Object.values(await ocr({ authorization: `Bearer ${tampered}` })).slice(0, 2),
      [401, 'API_KEY_INVALID'],
      'tampered key',
    );
    t.assert.deepEqual(
      Object.values(await ocr({ 'x-goog-api-key': nav })).slice(0, 2),
      [403, 'API_KEY_SERVICE_BLOCKED'],
      'navigation-only key',
    );
    t.assert.deepEqual(
      Object.values(await ocr({ authorization: `Bearer ${early.body.keyString}` })).slice(0, 2),
      [403, 'API_KEY_SERVICE_BLOCKED'],
      'made before OCR was enabled',
    );
    t.assert.deepEqual(
      Object.values(await ocr({ authorization: `Bearer ${acme.token}` })).slice(0, 2),
      [401, 'ACCESS_TOKEN_TYPE_UNSUPPORTED'],
      'account token on OCR',
    );
    const accepted = await ocr({}, `?key=${key.keyString}`);
    t.assert.equal(accepted.status, 200, `a good key passes verification (${accepted.status} ${accepted.message})`);

    t.assert.equal((await setup('DELETE', `/api/projects/demo-project/api-keys/${key.keyId}`, acme.token)).status, 200);
    t.assert.deepEqual(
      Object.values(await ocr({ authorization: `Bearer ${key.keyString}` })).slice(0, 2),
      [401, 'API_KEY_INVALID'],
      'revoked: the very next request',
    );

    t.assert.equal((await setup('GET', '/api/projects/demo-project', globex.token)).status, 404, "another account's token");
    t.assert.equal((await setup('GET', '/api/projects/demo-project', nav)).status, 401, 'API key on a setup route');
    const bad = await setup('POST', '/api/accounts/acme/projects', acme.token, { projectId: 'Bad Id' });
    t.assert.equal(bad.status, 400);
    t.assert.equal(bad.body.error.status, 'INVALID_ARGUMENT');
    t.assert.equal(
      bad.body.error.details.find((d: { fieldViolations?: unknown }) => d.fieldViolations).fieldViolations[0].field,
      'projectId',
    );
    t.assert.equal(
      (await setup('POST', '/api/accounts/acme/projects', acme.token, { projectId: 'demo-project' })).status,
      409,
      'duplicate',
    );
  });
}
