import { test, type TestContext } from 'node:test';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { buildTestApp } from '../../test/helpers/build-test-app.ts';
import { assertError, createTestAccount, setupProject } from '../../test/helpers/common-route-tests.ts';
import { createIdempotencyRepository } from './idempotency-repository.ts';
import { requestFingerprint, canonicalJson } from './request-fingerprint.ts';
import { redactSecrets } from './redact-secrets.ts';

for (const dialect of DIALECTS) {
  test(`[${dialect}] Idempotency-Key on the setup POST routes`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const other = await createTestAccount(database, 'other');
    await setupProject(app, acme, 'demo-project', { apis: ['ocr'] });
    const post = (url: string, payload: object, key?: string, headers = acme.headers) =>
      app.inject({ method: 'POST', url, payload, headers: { ...headers, ...(key === undefined ? {} : { 'idempotency-key': key }) } });
    const countKeys = async () =>
      (await app.inject({ url: '/api/projects/demo-project/api-keys', headers: acme.headers })).json().apiKeys.length;

    await t.test('same key + same body → the stored response again, no second project', async (t: TestContext) => {
      const body = { projectId: 'idem-project', displayName: 'Once' };
      const first = await post('/api/accounts/acme/projects', body, 'create-project-1');
      t.assert.equal(first.statusCode, 201);
      t.assert.equal(first.headers['idempotent-replayed'], undefined);
      // Same body, keys in another order: the same request.
      const again = await post('/api/accounts/acme/projects', { displayName: 'Once', projectId: 'idem-project' }, 'create-project-1');
      t.assert.equal(again.statusCode, 201);
      t.assert.equal(again.headers['idempotent-replayed'], 'true');
      t.assert.deepEqual(again.json(), first.json());
      const without = await post('/api/accounts/acme/projects', body);
      assertError(t, without, 409, 'ALREADY_EXISTS');
    });

    await t.test('generated ids: a replay returns the first resource instead of creating another', async (t: TestContext) => {
      const first = await post('/api/accounts/acme/projects', { displayName: 'Generated' }, 'gen-1');
      const again = await post('/api/accounts/acme/projects', { displayName: 'Generated' }, 'gen-1');
      t.assert.equal(again.json().projectId, first.json().projectId);
      const list = (await app.inject({ url: '/api/accounts/acme/projects?pageSize=100', headers: acme.headers })).json().projects;
      t.assert.equal(list.filter((p: { displayName: string }) => p.displayName === 'Generated').length, 1);
    });

    await t.test('key creation: the replay has the key metadata but never the secret, and says so', async (t: TestContext) => {
      const before = await countKeys();
      const first = await post('/api/projects/demo-project/api-keys', { displayName: 'ci' }, 'key-create-1');
      t.assert.equal(first.statusCode, 201);
      const created = first.json();
      t.assert.equal(typeof created.keyString, 'string');
      const again = await post('/api/projects/demo-project/api-keys', { displayName: 'ci' }, 'key-create-1');
      t.assert.equal(again.statusCode, 201);
      const replay = again.json();
      t.assert.equal(replay.keyId, created.keyId);
      t.assert.equal(replay.hint, created.hint);
      t.assert.ok(!('keyString' in replay));
      t.assert.ok(!again.body.includes(created.keyString));
      t.assert.deepEqual(replay.secretUnavailable.fields, ['keyString']);
      t.assert.match(replay.secretUnavailable.message, /rotate/);
      t.assert.equal(await countKeys(), before + 1);
      const stored = await createIdempotencyRepository(database.db).find('acme', 'key-create-1');
      t.assert.ok(stored && !stored.response_body!.includes(created.keyString), 'the plaintext is never stored');
    });

    await t.test('same key, different body or path → 422 IDEMPOTENCY_KEY_MISMATCH', async (t: TestContext) => {
      await post('/api/projects/demo-project/api-keys', { displayName: 'a' }, 'mismatch-1');
      assertError(
        t,
        await post('/api/projects/demo-project/api-keys', { displayName: 'b' }, 'mismatch-1'),
        422,
        'IDEMPOTENCY_KEY_MISMATCH',
      );
      assertError(t, await post('/api/accounts/acme/projects', { displayName: 'a' }, 'mismatch-1'), 422, 'IDEMPOTENCY_KEY_MISMATCH');
    });

    await t.test('a request still in flight → 409 IDEMPOTENCY_KEY_IN_USE with Retry-After', async (t: TestContext) => {
      const url = '/api/projects/demo-project/api-keys';
      const payload = { displayName: 'slow' };
      const repo = createIdempotencyRepository(database.db);
      // The claim another node holds while its handler runs.
      const held = await repo.claim({
        principal: 'acme',
        key: 'in-flight-1',
        fingerprint: requestFingerprint('POST', url, payload),
        now: new Date(),
        lockTtlMs: 60_000,
        retentionMs: 86_400_000,
      });
      t.assert.equal(held.kind, 'claimed');
      const res = await post(url, payload, 'in-flight-1');
      assertError(t, res, 409, 'IDEMPOTENCY_KEY_IN_USE');
      t.assert.equal(res.headers['retry-after'], '1');
    });

    await t.test('keys are scoped by account: another account may use the same key', async (t: TestContext) => {
      await app.inject({
        method: 'POST',
        url: '/api/accounts/other/projects',
        headers: other.headers,
        payload: { projectId: 'other-project' },
      });
      const mine = await post('/api/projects/demo-project/api-keys', { displayName: 'x' }, 'shared-key');
      const theirs = await post('/api/projects/other-project/api-keys', { displayName: 'x' }, 'shared-key', other.headers);
      t.assert.equal(mine.statusCode, 201);
      t.assert.equal(theirs.statusCode, 201);
      t.assert.notEqual(mine.json().keyId, theirs.json().keyId);
      t.assert.equal(theirs.headers['idempotent-replayed'], undefined);
    });

    await t.test('4xx outcomes are replayed too; validation failures claim nothing', async (t: TestContext) => {
      const missing = await post('/api/projects/nope-project/api-keys', { displayName: 'x' }, 'notfound-1');
      assertError(t, missing, 404, 'NOT_FOUND');
      const replay = await post('/api/projects/nope-project/api-keys', { displayName: 'x' }, 'notfound-1');
      assertError(t, replay, 404, 'NOT_FOUND');
      t.assert.equal(replay.headers['idempotent-replayed'], 'true');
      assertError(t, await post('/api/projects/demo-project/api-keys', { unknown: 1 }, 'invalid-1'), 400, 'INVALID_ARGUMENT');
      t.assert.equal(await createIdempotencyRepository(database.db).find('acme', 'invalid-1'), undefined);
    });

    await t.test('malformed, oversized and hostile keys → 400 naming Idempotency-Key', async (t: TestContext) => {
      for (const key of ['', 'x'.repeat(256), 'two words', 'tab\there', 'ünicode', '\u0000']) {
        const res = await app
          .inject({
            method: 'POST',
            url: '/api/accounts/acme/projects',
            payload: { displayName: 'z' },
            headers: { ...acme.headers, 'idempotency-key': key },
          })
          .catch(() => undefined);
        if (!res) continue; // light-my-request itself refuses some header bytes, as Node's HTTP parser would
        assertError(t, res, 400, 'INVALID_ARGUMENT');
        t.assert.equal(
          res.json().error.details.find((d: { fieldViolations?: unknown }) => d.fieldViolations).fieldViolations[0].field,
          'Idempotency-Key',
        );
      }
      t.assert.equal((await post('/api/accounts/acme/projects', { displayName: 'max' }, 'k'.repeat(255))).statusCode, 201);
    });

    await t.test('non-setup routes ignore the header', async (t: TestContext) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/projects/demo-project',
        headers: { ...acme.headers, 'idempotency-key': 'whatever' },
      });
      t.assert.equal(res.statusCode, 200);
    });
  });

  test(`[${dialect}] idempotency repository: atomic claim, abandoned-lock takeover, expiry, prune`, async (t: TestContext) => {
    const { database } = await buildTestApp(t, dialect);
    const repo = createIdempotencyRepository(database.db);
    const base = { principal: 'acme', key: 'k1', fingerprint: 'f1', lockTtlMs: 60_000, retentionMs: 86_400_000 };
    const t0 = new Date('2030-01-01T00:00:00.000Z');
    const racers = await Promise.all(Array.from({ length: 8 }, () => repo.claim({ ...base, now: t0 })));
    t.assert.equal(racers.filter((r) => r.kind === 'claimed').length, 1, 'exactly one of concurrent claims wins');
    t.assert.equal((await repo.claim({ ...base, now: new Date(t0.getTime() + 30_000) })).kind, 'in-flight');
    const taken = await repo.claim({ ...base, now: new Date(t0.getTime() + 61_000) });
    t.assert.equal(taken.kind, 'claimed', 'an abandoned claim (its node died) is taken over after the lock TTL');
    const stale = racers.find((r) => r.kind === 'claimed')!;
    if (stale.kind === 'claimed') await repo.complete(stale.claim, { status: 201, body: '{"old":true}', redactedFields: [] });
    t.assert.equal((await repo.find('acme', 'k1'))!.state, 'IN_FLIGHT', 'the first owner can no longer complete it');
    if (taken.kind === 'claimed') await repo.complete(taken.claim, { status: 201, body: '{"a":1}', redactedFields: [] });
    const replay = await repo.claim({ ...base, now: new Date(t0.getTime() + 62_000) });
    t.assert.deepEqual(replay, { kind: 'replay', status: 201, body: '{"a":1}', redactedFields: [] });
    const later = await repo.claim({ ...base, fingerprint: 'other', now: new Date(t0.getTime() + 61_000 + 86_400_001) });
    t.assert.equal(later.kind, 'claimed', 'after 24 h the key is free for any request');
    const released = await repo.claim({ ...base, key: 'k2', now: t0 });
    if (released.kind === 'claimed') await repo.release(released.claim);
    t.assert.equal(await repo.find('acme', 'k2'), undefined);
    t.assert.equal(await repo.prune(new Date(t0.getTime() + 10 * 86_400_000)), 1);
  });
}

test('request fingerprint: canonical JSON, sensitive to method, path and every value', (t: TestContext) => {
  t.assert.equal(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x' }), '{"a":"x","b":[1,{"c":2,"d":1}]}');
  const f = requestFingerprint('POST', '/a', { x: 1 });
  t.assert.equal(f, requestFingerprint('POST', '/a', { x: 1 }));
  t.assert.notEqual(f, requestFingerprint('POST', '/b', { x: 1 }));
  t.assert.notEqual(f, requestFingerprint('PUT', '/a', { x: 1 }));
  t.assert.notEqual(f, requestFingerprint('POST', '/a', { x: '1' }));
  t.assert.notEqual(requestFingerprint('POST', '/a', undefined), requestFingerprint('POST', '/a', {}));
});

test('redactSecrets removes one-time secrets by field name or by value, at any depth, nothing else', (t: TestContext) => {
  const secret = `lgb_at_${'A'.repeat(49)}`;
  const r = redactSecrets(
    JSON.stringify({
      keyId: 'k',
      keyString: 's',
      hint: 'lgb_at_AAAA',
      client: { clientSecret: 'c', name: 'n' },
      deep: { a: { secret: 'x' } },
      list: [{ other: secret }],
      token: 't',
    }),
  );
  t.assert.deepEqual(r.redactedFields, ['keyString', 'client.clientSecret', 'deep.a.secret', 'list[0].other', 'token']);
  t.assert.deepEqual(JSON.parse(r.body), { keyId: 'k', hint: 'lgb_at_AAAA', client: { name: 'n' }, deep: { a: {} }, list: [{}] });
  t.assert.deepEqual(redactSecrets('not json'), { body: 'not json', redactedFields: [] });
  t.assert.deepEqual(redactSecrets('[1]'), { body: '[1]', redactedFields: [] });
});
