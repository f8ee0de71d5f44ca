import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';

/** Issue 16, item 9 and 12: hostile input is a 4xx, never a 500. */

test('JSON nested 5000 deep anywhere in imageContext is a 400, not a stack overflow', async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'sqlite', { OCR_WARM: 'false' });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'deep-project', { apis: ['ocr'], key: {} });
  const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  for (const deep of [deepArray, deepObject]) {
    for (const field of ['languageHints', 'textDetectionParams', 'cropHintsParams', 'latLongRect', 'webDetectionParams', 'unknownField']) {
      const payload = `{"requests":[{"image":{"content":"AAAA"},"features":[{"type":"TEXT_DETECTION"}],"imageContext":{"${field}":${deep}}}]}`;
      const res = await app.inject({
        method: 'POST',
        url: '/v1/images:annotate',
        headers: { 'x-goog-api-key': keyString!, 'content-type': 'application/json' },
        payload,
      });
      t.assert.equal(res.statusCode, 400, `${field}: ${res.body.slice(0, 300)}`);
    }
  }
});

test('text/plain bodies are 415 on every route, as docs/errors.md says', async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'sqlite', { OCR_WARM: 'false' });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'plain-project', { apis: ['ocr'], key: {} });
  const vision = await app.inject({
    method: 'POST',
    url: '/v1/images:annotate',
    headers: { 'x-goog-api-key': keyString!, 'content-type': 'text/plain' },
    payload: '{"requests":[]}',
  });
  t.assert.equal(vision.statusCode, 415, vision.body.slice(0, 300));
  t.assert.equal(vision.json().error.details[0].reason, 'UNSUPPORTED_MEDIA_TYPE');
  const setup = await app.inject({
    method: 'POST',
    url: '/api/accounts/acme/projects',
    headers: { ...owner.headers, 'content-type': 'text/plain' },
    payload: '{"projectId":"plain-two"}',
  });
  t.assert.equal(setup.statusCode, 415, setup.body.slice(0, 300));
});

for (const dialect of DIALECTS) {
  test(`[${dialect}] NUL and other control characters in ids and page tokens are 400 or 404, never 500`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect, { OCR_WARM: 'false' });
    const owner = await createTestAccount(database, 'acme');
    const { projectId, keyId } = await setupProject(app, owner, 'nul-project', { apis: ['ocr'], key: {} });
    for (const bad of ['%00', 'a%00b', '%00%00', 'x%C0%80']) {
      for (const url of [
        `/api/projects/${bad}`,
        `/api/projects/${projectId}/api-keys/${bad}`,
        `/api/projects/${projectId}/apis/${bad}`,
        `/api/projects/${projectId}/api-keys?pageToken=${bad}`,
        `/api/projects/${projectId}/api-keys?pageToken=${Buffer.from(`\u0000${keyId}`).toString('base64url')}`,
        `/api/accounts/acme/projects?pageToken=${Buffer.from('\u0000').toString('base64url')}`,
        `/api/accounts/acme/audit-log?pageToken=${bad}`,
        `/api/accounts/acme/tokens/${bad}`,
        `/api/projects/${projectId}/oauth-clients/${bad}`,
        `/api/projects/${projectId}/oauth-clients?pageToken=${Buffer.from('\u0000x').toString('base64url')}`,
      ]) {
        const res = await app.inject({ method: 'GET', url, headers: owner.headers });
        t.assert.ok(res.statusCode === 400 || res.statusCode === 404, `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      const patch = await app.inject({
        method: 'PATCH',
        url: `/api/projects/${projectId}`,
        headers: owner.headers,
        payload: { displayName: `a\u0000b` },
      });
      t.assert.ok(patch.statusCode < 500, `displayName with NUL: ${patch.statusCode} ${patch.body.slice(0, 200)}`);
      const create = await app.inject({
        method: 'POST',
        url: `/api/accounts/acme/projects`,
        headers: owner.headers,
        payload: { projectId: 'nul-two', displayName: `\u0000` },
      });
      t.assert.ok(create.statusCode < 500, `create with NUL: ${create.statusCode} ${create.body.slice(0, 200)}`);
    }
  });
}
