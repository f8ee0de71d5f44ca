import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { assertError, createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { parseSecret } from '../src/credentials/secret-format.ts';

for (const dialect of DIALECTS) {
  test(`[${dialect}] api keys: create once, never shown again, restrictions, patch, rotate, revoke`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const h = acme.headers;
    await setupProject(app, acme, 'demo-project', { apis: ['ocr'] });
    await setupProject(app, acme, 'other-project');
    const base = '/api/projects/demo-project/api-keys';
    const create = (payload: unknown) => app.inject({ method: 'POST', url: base, headers: h, payload: payload as object });

    const created = await create({ displayName: 'Server key' });
    t.assert.equal(created.statusCode, 201);
    const key = created.json();
    t.assert.deepEqual(parseSecret(key.keyString), { kind: 'api_key' });
    t.assert.equal(key.hint, key.keyString.slice(0, 'lgb_key_'.length + 4));
    t.assert.equal(key.name, `projects/demo-project/apiKeys/${key.keyId}`);
    t.assert.deepEqual(key.restrictions, { services: ['ocr'] }, 'services enabled at creation, stored explicitly');
    t.assert.equal(key.state, 'ACTIVE');

    await t.test('list and get never include the secret', async (t: TestContext) => {
      const list = await app.inject({ url: base, headers: h });
      t.assert.equal(list.statusCode, 200);
      t.assert.ok(!list.body.includes(key.keyString));
      t.assert.ok(!('keyString' in list.json().apiKeys[0]));
      const one = await app.inject({ url: `${base}/${key.keyId}`, headers: h });
      t.assert.equal(one.json().keyId, key.keyId);
      t.assert.ok(!one.body.includes(key.keyString));
    });
    await t.test('a key id of another project is 404 there', async (t: TestContext) => {
      assertError(t, await app.inject({ url: `/api/projects/other-project/api-keys/${key.keyId}`, headers: h }), 404, 'NOT_FOUND');
      assertError(
        t,
        await app.inject({ method: 'DELETE', url: `/api/projects/other-project/api-keys/${key.keyId}`, headers: h }),
        404,
        'NOT_FOUND',
      );
      assertError(t, await app.inject({ url: `${base}/k-nope`, headers: h }), 404, 'NOT_FOUND');
    });
    await t.test('a key made with no api enabled has no services, and never gains later ones', async (t: TestContext) => {
      const r = await app.inject({ method: 'POST', url: '/api/projects/other-project/api-keys', headers: h, payload: {} });
      t.assert.deepEqual(r.json().restrictions.services, []);
      await app.inject({ method: 'POST', url: '/api/projects/other-project/apis', headers: h, payload: { api: 'ocr' } });
      const after = await app.inject({ url: `/api/projects/other-project/api-keys/${r.json().keyId}`, headers: h });
      t.assert.deepEqual(after.json().restrictions.services, []);
    });
    await t.test('restrictions are validated with field violations', async (t: TestContext) => {
      const cases: Array<[unknown, string]> = [
        [{ services: ['vision'] }, 'restrictions.services[0]'],
        [{ services: ['ocr', 'ocr'] }, 'restrictions.services'],
        [{ allowedIps: ['10.0.0.0/33'] }, 'restrictions.allowedIps[0]'],
        [{ allowedIps: ['192.0.2.1', '2001:db8::/129'] }, 'restrictions.allowedIps[1]'],
        [{ allowedIps: ['not an ip'] }, 'restrictions.allowedIps[0]'],
        [{ allowedReferrers: ['https://exa mple.com'] }, 'restrictions.allowedReferrers[0]'],
        [{ allowedReferrers: ['javascript:alert(1)'] }, 'restrictions.allowedReferrers[0]'],
        [
          { androidApps: [{ packageName: 'noDots', sha1Fingerprint: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' }] },
          'restrictions.androidApps[0].packageName',
        ],
        [{ androidApps: [{ packageName: 'com.x.y', sha1Fingerprint: 'da39a3ee' }] }, 'restrictions.androidApps[0].sha1Fingerprint'],
        [{ androidApps: [{ packageName: 'com.x.y' }] }, 'restrictions.androidApps[0].sha1Fingerprint'],
        [{ iosBundleIds: ['bad bundle'] }, 'restrictions.iosBundleIds[0]'],
        [{ unknown: true }, 'restrictions.unknown'],
        [{ allowedIps: 'not-a-list' }, 'restrictions.allowedIps[0]'], // coerceTypes: 'array' wraps a scalar
      ];
      for (const [restrictions, field] of cases) {
        const r = await create({ restrictions });
        assertError(t, r, 400, 'INVALID_ARGUMENT');
        const violations = r.json().error.details.find((d: { fieldViolations?: unknown }) => d.fieldViolations).fieldViolations;
        t.assert.equal(violations[0].field, field, JSON.stringify(restrictions));
      }
      assertError(t, await create({ expireTime: '2001-01-01T00:00:00Z' }), 400, 'INVALID_ARGUMENT');
      assertError(t, await create({ expireTime: 'tomorrow' }), 400, 'INVALID_ARGUMENT');
      assertError(t, await create({ displayName: 'x'.repeat(101) }), 400, 'INVALID_ARGUMENT');
    });
    await t.test('all restriction kinds are stored, normalized', async (t: TestContext) => {
      const r = await create({
        restrictions: {
          services: ['navigation', 'ocr'],
          allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
          allowedReferrers: ['*.example.com/*', 'https://app.test'],
          androidApps: [{ packageName: 'com.example.app', sha1Fingerprint: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' }],
          iosBundleIds: ['com.example.ios'],
        },
        expireTime: '2999-01-01T00:00:00Z',
      });
      t.assert.equal(r.statusCode, 201);
      const { restrictions, expireTime } = r.json();
      t.assert.deepEqual(restrictions.services, ['navigation', 'ocr']);
      t.assert.equal(restrictions.androidApps[0].sha1Fingerprint, 'DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09');
      t.assert.equal(expireTime, '2999-01-01T00:00:00.000Z');
    });
    await t.test('patch: displayName, restrictions (services kept when absent), expireTime set and cleared', async (t: TestContext) => {
      const url = `${base}/${key.keyId}`;
      const p1 = await app.inject({
        method: 'PATCH',
        url,
        headers: h,
        payload: { displayName: 'Renamed', restrictions: { allowedIps: ['192.0.2.0/24'] } },
      });
      t.assert.equal(p1.statusCode, 200);
      t.assert.equal(p1.json().displayName, 'Renamed');
      t.assert.deepEqual(p1.json().restrictions, { services: ['ocr'], allowedIps: ['192.0.2.0/24'] });
      const p2 = await app.inject({ method: 'PATCH', url, headers: h, payload: { expireTime: '2999-01-01T00:00:00Z' } });
      t.assert.equal(p2.json().expireTime, '2999-01-01T00:00:00.000Z');
      const p3 = await app.inject({ method: 'PATCH', url, headers: h, payload: { expireTime: null, restrictions: { services: [] } } });
      t.assert.equal(p3.json().expireTime, undefined);
      t.assert.deepEqual(p3.json().restrictions, { services: [] });
      assertError(t, await app.inject({ method: 'PATCH', url, headers: h, payload: { keyString: 'x' } }), 400, 'INVALID_ARGUMENT');
    });
    await t.test(':rotate is routed (escaped colon) and returns a new secret once', async (t: TestContext) => {
      const r = await app.inject({ method: 'POST', url: `${base}/${key.keyId}:rotate`, headers: h, payload: { graceSeconds: 3600 } });
      t.assert.equal(r.statusCode, 200);
      t.assert.notEqual(r.json().keyString, key.keyString);
      t.assert.equal(r.json().keyId, key.keyId);
      t.assert.ok(Date.parse(r.json().previousKeyExpireTime) > Date.now() + 3500_000);
      t.assert.equal(r.json().hint, r.json().keyString.slice(0, 12));
      assertError(
        t,
        await app.inject({ method: 'POST', url: `${base}/${key.keyId}:rotate`, headers: h, payload: { graceSeconds: -1 } }),
        400,
        'INVALID_ARGUMENT',
      );
      assertError(
        t,
        await app.inject({ method: 'POST', url: `${base}/${key.keyId}:rotate`, headers: h, payload: { graceSeconds: 10_000_000 } }),
        400,
        'INVALID_ARGUMENT',
      );
      assertError(t, await app.inject({ method: 'POST', url: `${base}/${key.keyId}:explode`, headers: h, payload: {} }), 404, 'NOT_FOUND');
      assertError(t, await app.inject({ method: 'POST', url: `${base}/k-nope:rotate`, headers: h, payload: {} }), 404, 'NOT_FOUND');
    });
    await t.test('revoke: state REVOKED, hidden from the default list, no more changes', async (t: TestContext) => {
      const url = `${base}/${key.keyId}`;
      const del = await app.inject({ method: 'DELETE', url, headers: h });
      t.assert.equal(del.statusCode, 200);
      t.assert.equal(del.json().state, 'REVOKED');
      t.assert.ok(del.json().deleteTime);
      t.assert.equal((await app.inject({ method: 'DELETE', url, headers: h })).statusCode, 200, 'idempotent');
      const list = await app.inject({ url: base, headers: h });
      t.assert.ok(!list.json().apiKeys.some((k: { keyId: string }) => k.keyId === key.keyId));
      const withDeleted = await app.inject({ url: `${base}?showDeleted=true`, headers: h });
      t.assert.ok(withDeleted.json().apiKeys.some((k: { keyId: string }) => k.keyId === key.keyId));
      assertError(t, await app.inject({ method: 'PATCH', url, headers: h, payload: { displayName: 'x' } }), 400, 'FAILED_PRECONDITION');
      assertError(t, await app.inject({ method: 'POST', url: `${url}:rotate`, headers: h, payload: {} }), 400, 'FAILED_PRECONDITION');
    });
    await t.test('pagination visits every key once', async (t: TestContext) => {
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const r = await app.inject({ url: `${base}?pageSize=1&showDeleted=true${token ? `&pageToken=${token}` : ''}`, headers: h });
        seen.push(...r.json().apiKeys.map((k: { keyId: string }) => k.keyId));
        token = r.json().nextPageToken;
      } while (token);
      t.assert.equal(new Set(seen).size, seen.length);
      t.assert.equal(seen.length, 2);
    });
  });
}
