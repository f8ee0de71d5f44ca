import { test, type TestContext } from 'node:test';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { buildTestApp } from '../../test/helpers/build-test-app.ts';
import { createTestAccount, setupProject, type TestAccount } from '../../test/helpers/common-route-tests.ts';
import { AppError } from '../errors.ts';
import { generateSecret } from '../credentials/secret-format.ts';
import { createKeyVerifier, keyRequestContext, type KeyOutcome, type KeyRequestContext, type VerifiedKey } from './key-verifier.ts';
import type { FastifyInstance } from 'fastify';

async function refuses(t: TestContext, promise: Promise<KeyOutcome>, code: string): Promise<AppError> {
  const outcome = await promise;
  if (outcome.ok) t.assert.fail(`expected ${code}, but the key was accepted`);
  t.assert.ok(outcome.error instanceof AppError);
  t.assert.equal(outcome.error.code, code, outcome.error.message);
  return outcome.error;
}

async function accepts(t: TestContext, promise: Promise<KeyOutcome>): Promise<VerifiedKey> {
  const outcome = await promise;
  if (!outcome.ok) t.assert.fail(`expected the key to be accepted, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.key;
}

const ctx = (key: string | undefined, extra: Partial<KeyRequestContext> = {}): KeyRequestContext => ({
  ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
  ip: '203.0.113.7',
  ...extra,
});

async function newKey(app: FastifyInstance, account: TestAccount, projectId: string, body: Record<string, unknown> = {}) {
  const r = await app.inject({ method: 'POST', url: `/api/projects/${projectId}/api-keys`, headers: account.headers, payload: body });
  if (r.statusCode !== 201) throw new Error(r.body);
  return r.json() as { keyId: string; keyString: string };
}

for (const dialect of DIALECTS) {
  test(`[${dialect}] key verifier: every outcome against the real store`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const { keyString: preOcrKey } = await setupProject(app, acme, 'demo-project', { key: {} }); // made before OCR was enabled
    const v = app.keyVerifier;

    await t.test('no credential → CREDENTIALS_MISSING', async (t: TestContext) => {
      await refuses(t, v.verify(ctx(undefined), 'ocr'), 'CREDENTIALS_MISSING');
    });
    await t.test('malformed or bad checksum → API_KEY_INVALID with no store read', async (t: TestContext) => {
      // A verifier whose store is closed would fail with anything but API_KEY_INVALID if it read it.
      const closedDb = createKeyVerifier({ db: null as never });
      await closedDb.close();
      const good = generateSecret('api_key').secret;
      for (const bad of [
        'nope',
        `${good.slice(0, -1)}${good.endsWith('a') ? 'b' : 'a'}`,
        good.toUpperCase(),
        `${good}x`,
        'lgb_key_',
        ' '.repeat(10_000),
      ]) {
        await refuses(t, closedDb.verify(ctx(bad), 'ocr'), 'API_KEY_INVALID');
      }
      await refuses(t, closedDb.verify({ ip: '::1', apiKeyHeader: 'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe' }, 'ocr'), 'API_KEY_INVALID');
    });
    await t.test('an account token → ACCESS_TOKEN_TYPE_UNSUPPORTED', async (t: TestContext) => {
      await refuses(t, v.verify(ctx(acme.token), 'ocr'), 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
    });
    await t.test('unknown but well-formed key → API_KEY_INVALID, and the store is read once per cache TTL', async (t: TestContext) => {
      await refuses(t, v.verify(ctx(generateSecret('api_key').secret), 'ocr'), 'API_KEY_INVALID');
      const lookups: string[] = [];
      const counting = createKeyVerifier({ db: database.db, onCacheLookup: (result) => void lookups.push(result) });
      t.after(() => counting.close());
      const madeUp = generateSecret('api_key').secret;
      for (let i = 0; i < 3; i += 1) await refuses(t, counting.verify(ctx(madeUp), 'ocr'), 'API_KEY_INVALID');
      t.assert.deepEqual(lookups, ['miss', 'hit', 'hit']);
      counting.invalidateAll();
      await refuses(t, counting.verify(ctx(madeUp), 'ocr'), 'API_KEY_INVALID');
      t.assert.equal(lookups.at(-1), 'miss', 'invalidateAll forgets unknown secrets too');
    });
    await t.test('OCR not enabled → SERVICE_DISABLED, and the message says how to enable it', async (t: TestContext) => {
      const err = await refuses(t, v.verify(ctx(preOcrKey), 'ocr'), 'SERVICE_DISABLED');
      t.assert.match(err.message, /POST \/api\/projects\/demo-project\/apis \{"api":"ocr"\}/);
      t.assert.equal(err.options.metadata?.service, 'ocr');
      t.assert.equal(err.options.metadata?.project, 'demo-project');
    });

    const enable = await app.inject({
      method: 'POST',
      url: '/api/projects/demo-project/apis',
      headers: acme.headers,
      payload: { api: 'ocr' },
    });
    t.assert.equal(enable.statusCode, 200);

    await t.test('a key made before OCR was enabled, without restrictions, does not gain OCR', async (t: TestContext) => {
      await refuses(t, v.verify(ctx(preOcrKey!), 'ocr'), 'API_KEY_SERVICE_BLOCKED');
    });
    const ocrKey = await newKey(app, acme, 'demo-project');
    await t.test('a key made after OCR was enabled works, via all three carriers', async (t: TestContext) => {
      const ok = await accepts(t, v.verify(ctx(ocrKey.keyString), 'ocr'));
      t.assert.deepEqual(ok, { keyId: ocrKey.keyId, projectId: 'demo-project', accountId: 'acme', api: 'ocr', requestsPerMinute: 600 });
      t.assert.equal((await accepts(t, v.verify({ ip: '::1', apiKeyHeader: ocrKey.keyString }, 'ocr'))).keyId, ocrKey.keyId);
      t.assert.equal((await accepts(t, v.verify({ ip: '::1', queryKey: ocrKey.keyString }, 'ocr'))).keyId, ocrKey.keyId);
    });
    await t.test('navigation-only key on OCR → API_KEY_SERVICE_BLOCKED', async (t: TestContext) => {
      const nav = await newKey(app, acme, 'demo-project', { restrictions: { services: ['navigation'] } });
      await refuses(t, v.verify(ctx(nav.keyString), 'ocr'), 'API_KEY_SERVICE_BLOCKED');
    });
    await t.test('IP / CIDR restriction (v4, v6, v4-mapped)', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project', {
        restrictions: { allowedIps: ['198.51.100.0/24', '2001:db8::/32', '192.0.2.1'] },
      });
      await accepts(t, v.verify(ctx(k.keyString, { ip: '198.51.100.200' }), 'ocr'));
      await accepts(t, v.verify(ctx(k.keyString, { ip: '::ffff:192.0.2.1' }), 'ocr'));
      await accepts(t, v.verify(ctx(k.keyString, { ip: '2001:db8:1::5' }), 'ocr'));
      await refuses(t, v.verify(ctx(k.keyString, { ip: '198.51.101.1' }), 'ocr'), 'API_KEY_IP_ADDRESS_BLOCKED');
      await refuses(t, v.verify(ctx(k.keyString, { ip: '2001:db9::1' }), 'ocr'), 'API_KEY_IP_ADDRESS_BLOCKED');
    });
    await t.test('referrer restriction', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project', {
        restrictions: { allowedReferrers: ['*.example.com', 'https://app.test/ocr/*'] },
      });
      await accepts(t, v.verify(ctx(k.keyString, { referer: 'https://www.example.com/any/path' }), 'ocr'));
      await accepts(t, v.verify(ctx(k.keyString, { referer: 'https://app.test/ocr/page?x=1' }), 'ocr'));
      for (const referer of [undefined, 'https://example.com.evil.test/', 'http://app.test/ocr/x', 'https://app.test/other', 'not a url']) {
        await refuses(t, v.verify(ctx(k.keyString, { referer }), 'ocr'), 'API_KEY_HTTP_REFERRER_BLOCKED');
      }
    });
    await t.test('Android restriction (fingerprint stored normalized, matched with or without colons)', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project', {
        restrictions: { androidApps: [{ packageName: 'com.example.app', sha1Fingerprint: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' }] },
      });
      await accepts(
        t,
        v.verify(ctx(k.keyString, { androidPackage: 'com.example.app', androidCert: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' }), 'ocr'),
      );
      await accepts(
        t,
        v.verify(
          ctx(k.keyString, {
            androidPackage: 'com.example.app',
            androidCert: 'DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09',
          }),
          'ocr',
        ),
      );
      await refuses(
        t,
        v.verify(ctx(k.keyString, { androidPackage: 'com.example.other', androidCert: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' }), 'ocr'),
        'API_KEY_ANDROID_APP_BLOCKED',
      );
      await refuses(t, v.verify(ctx(k.keyString), 'ocr'), 'API_KEY_ANDROID_APP_BLOCKED');
    });
    await t.test('iOS restriction', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project', { restrictions: { iosBundleIds: ['com.example.ios'] } });
      await accepts(t, v.verify(ctx(k.keyString, { iosBundleId: 'com.example.ios' }), 'ocr'));
      await refuses(t, v.verify(ctx(k.keyString, { iosBundleId: 'com.example.other' }), 'ocr'), 'API_KEY_IOS_APP_BLOCKED');
    });
    await t.test('revoked key → API_KEY_INVALID on the very next request (cached before)', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project');
      await accepts(t, v.verify(ctx(k.keyString), 'ocr')); // now cached
      const del = await app.inject({ method: 'DELETE', url: `/api/projects/demo-project/api-keys/${k.keyId}`, headers: acme.headers });
      t.assert.equal(del.statusCode, 200);
      await refuses(t, v.verify(ctx(k.keyString), 'ocr'), 'API_KEY_INVALID');
    });
    await t.test('expired key → API_KEY_INVALID, checked against the clock on a cache hit', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project', { expireTime: new Date(Date.now() + 1500).toISOString() });
      await accepts(t, v.verify(ctx(k.keyString), 'ocr')); // cached, still valid
      await new Promise((r) => setTimeout(r, 1600));
      const err = await refuses(t, v.verify(ctx(k.keyString), 'ocr'), 'API_KEY_INVALID');
      t.assert.match(err.message, /expired/);
    });
    await t.test('rotation: the old secret works during the grace period, then stops', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project');
      await accepts(t, v.verify(ctx(k.keyString), 'ocr'));
      const graceful = await app.inject({
        method: 'POST',
        url: `/api/projects/demo-project/api-keys/${k.keyId}:rotate`,
        headers: acme.headers,
        payload: { graceSeconds: 600 },
      });
      t.assert.equal(graceful.statusCode, 200);
      const second = graceful.json().keyString as string;
      t.assert.notEqual(second, k.keyString);
      await accepts(t, v.verify(ctx(k.keyString), 'ocr'));
      await accepts(t, v.verify(ctx(second), 'ocr'));
      const immediate = await app.inject({
        method: 'POST',
        url: `/api/projects/demo-project/api-keys/${k.keyId}:rotate`,
        headers: acme.headers,
        payload: {},
      });
      const third = immediate.json().keyString as string;
      await refuses(t, v.verify(ctx(k.keyString), 'ocr'), 'API_KEY_INVALID');
      await refuses(t, v.verify(ctx(second), 'ocr'), 'API_KEY_INVALID');
      t.assert.equal((await accepts(t, v.verify(ctx(third), 'ocr'))).keyId, k.keyId);
    });
    await t.test('quota change and api disable apply at once; project delete stops every key', async (t: TestContext) => {
      const k = await newKey(app, acme, 'demo-project');
      t.assert.equal((await accepts(t, v.verify(ctx(k.keyString), 'ocr'))).requestsPerMinute, 600);
      await app.inject({
        method: 'PATCH',
        url: '/api/projects/demo-project/apis/ocr',
        headers: acme.headers,
        payload: { quota: { requestsPerMinute: 42 } },
      });
      t.assert.equal((await accepts(t, v.verify(ctx(k.keyString), 'ocr'))).requestsPerMinute, 42);
      await app.inject({ method: 'DELETE', url: '/api/projects/demo-project/apis/ocr', headers: acme.headers });
      await refuses(t, v.verify(ctx(k.keyString), 'ocr'), 'SERVICE_DISABLED');
      await app.inject({ method: 'POST', url: '/api/projects/demo-project/apis', headers: acme.headers, payload: { api: 'ocr' } });
      await accepts(t, v.verify(ctx(k.keyString), 'ocr'));
      await app.inject({ method: 'DELETE', url: '/api/projects/demo-project', headers: acme.headers });
      await refuses(t, v.verify(ctx(k.keyString), 'ocr'), 'SERVICE_DISABLED');
    });
  });

  test(`[${dialect}] key verifier: lastUsedTime is flushed in batches, not written per request`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const { keyId, keyString } = await setupProject(app, acme, 'demo-project', { apis: ['ocr'], key: {} });
    const verifier = createKeyVerifier({ db: database.db, lastUsedFlushMs: 3_600_000 });
    t.after(() => verifier.close());
    for (let i = 0; i < 5; i += 1) await accepts(t, verifier.verify(ctx(keyString), 'ocr'));
    const before = await app.inject({ url: `/api/projects/demo-project/api-keys/${keyId}`, headers: acme.headers });
    t.assert.equal(before.json().lastUsedTime, undefined, 'no write on the request path');
    await verifier.flush();
    const after = await app.inject({ url: `/api/projects/demo-project/api-keys/${keyId}`, headers: acme.headers });
    t.assert.ok(Date.parse(after.json().lastUsedTime) > 0);
  });
}

test('keyRequestContext reads every carrier and restriction header', async (t: TestContext) => {
  const fake = {
    headers: {
      authorization: 'Bearer a',
      'x-goog-api-key': 'b',
      referer: 'https://r/',
      'x-android-package': 'p',
      'x-android-cert': 'c',
      'x-ios-bundle-identifier': 'i',
    },
    query: { key: 'q' },
    ip: '192.0.2.9',
  };
  t.assert.deepEqual(keyRequestContext(fake as never), {
    authorization: 'Bearer a',
    apiKeyHeader: 'b',
    queryKey: 'q',
    ip: '192.0.2.9',
    referer: 'https://r/',
    androidPackage: 'p',
    androidCert: 'c',
    iosBundleId: 'i',
  });
});
