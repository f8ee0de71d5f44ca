import { test, type TestContext } from 'node:test';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { generateSecret, hashSecret } from '../credentials/secret-format.ts';
import { MAX_ACTIVE_SECRETS } from './oauth-clients-schemas.ts';
import { verifyClientSecret } from './verify-client-secret.ts';
import { envelope, oauthFixture, violatedFields, webClient, type OAuthFixture } from '../../test/helpers/oauth-clients-fixture.ts';

const base = '/api/projects/acme-app/oauth-clients';

async function confidentialClient(f: OAuthFixture): Promise<{ clientId: string; clientSecret: string; clientSecretId: string }> {
  const res = await f.call('POST', base, webClient);
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json();
}

/** Moves a secret's expiry into the past, as time passing would (no sleeping in tests). */
async function expireNow(f: OAuthFixture, secretId: string): Promise<void> {
  await f.db
    .updateTable('oauth_client_secrets')
    .set({ expire_time: new Date(Date.now() - 1000).toISOString() })
    .where('secret_id', '=', secretId)
    .execute();
}

for (const dialect of DIALECTS) {
  test(`[${dialect}] a secret is shown once: never listed, only its hash stored`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const client = await confidentialClient(f);
    const added = await f.call('POST', `${base}/${client.clientId}/secrets`, { displayName: 'rotation 2026' });
    t.assert.equal(added.statusCode, 201, added.body);
    const secret = added.json();
    t.assert.match(secret.clientSecret, /^lgb_cs_[0-9A-Za-z]{49}$/);
    t.assert.equal(secret.hint, secret.clientSecret.slice(0, 11));
    t.assert.equal(secret.state, 'ACTIVE');
    t.assert.equal(secret.displayName, 'rotation 2026');

    const everything = [
      await f.call('GET', `${base}/${client.clientId}/secrets`),
      await f.call('GET', `${base}/${client.clientId}`),
      await f.call('GET', base),
      await f.call('GET', '/api/accounts/acme/audit-log'),
    ];
    for (const res of everything) {
      t.assert.ok(!res.body.includes(secret.clientSecret) && !res.body.includes(client.clientSecret), res.body);
    }
    const listed = everything[0].json().secrets;
    t.assert.deepEqual(
      listed.map((s: { secretId: string }) => s.secretId),
      [client.clientSecretId, secret.secretId],
    );
    t.assert.ok(listed.every((s: Record<string, unknown>) => s.clientSecret === undefined && s.secretHash === undefined));

    const rows = await f.db.selectFrom('oauth_client_secrets').selectAll().execute();
    t.assert.equal(rows.length, 2);
    t.assert.ok(rows.some((r) => r.secret_hash === hashSecret(secret.clientSecret)));
    t.assert.ok(!JSON.stringify(rows).includes(secret.clientSecret.slice(11)), 'no stored column holds the secret body');
    const audit = await f.db.selectFrom('audit_log').selectAll().where('action', 'like', 'oauth_client%').execute();
    t.assert.deepEqual(audit.map((a) => a.action).sort(), ['oauth_client.create', 'oauth_client_secret.create']);
    t.assert.ok(!JSON.stringify(audit).includes(secret.clientSecret));

    const bare = await f.app.inject({
      method: 'POST',
      url: `${base}/${client.clientId}/secrets`,
      headers: { authorization: `Bearer ${f.tokenA}` },
    });
    t.assert.equal(bare.statusCode, 201, 'a POST without a body adds a secret with defaults');
  });

  test(`[${dialect}] rotation: two secrets overlap, revoking the old leaves the new working`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const client = await confidentialClient(f);
    const next = (await f.call('POST', `${base}/${client.clientId}/secrets`, {})).json();

    const first = await verifyClientSecret(f.db, client.clientId, client.clientSecret);
    const second = await verifyClientSecret(f.db, client.clientId, next.clientSecret);
    t.assert.deepEqual(first, { ok: true, clientId: client.clientId, projectId: 'acme-app', secretId: client.clientSecretId });
    t.assert.deepEqual(second, { ok: true, clientId: client.clientId, projectId: 'acme-app', secretId: next.secretId });

    const revoked = await f.call('DELETE', `${base}/${client.clientId}/secrets/${client.clientSecretId}`);
    t.assert.equal(revoked.statusCode, 200, revoked.body);
    t.assert.equal(revoked.json().state, 'REVOKED');
    t.assert.ok(revoked.json().revokeTime);
    t.assert.deepEqual(await verifyClientSecret(f.db, client.clientId, client.clientSecret), { ok: false, code: 'SECRET_INVALID' });
    t.assert.equal((await verifyClientSecret(f.db, client.clientId, next.clientSecret)).ok, true);

    const again = await f.call('DELETE', `${base}/${client.clientId}/secrets/${client.clientSecretId}`);
    t.assert.equal(again.statusCode, 200);
    t.assert.equal(again.json().revokeTime, revoked.json().revokeTime, 'revoking twice changes nothing');
    const states = (await f.call('GET', `${base}/${client.clientId}/secrets`)).json().secrets.map((s: { state: string }) => s.state);
    t.assert.deepEqual(states, ['REVOKED', 'ACTIVE']);
    const revokes = await f.db.selectFrom('audit_log').select('action').where('action', '=', 'oauth_client_secret.revoke').execute();
    t.assert.equal(revokes.length, 1);

    t.assert.equal((await f.call('DELETE', `${base}/${client.clientId}/secrets/ocs-nope`)).statusCode, 404);
  });

  test(`[${dialect}] expiry: refused once past expireTime, listed as EXPIRED, frees a slot`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const client = await confidentialClient(f);
    const expireTime = new Date(Date.now() + 86_400_000).toISOString();
    const temp = (await f.call('POST', `${base}/${client.clientId}/secrets`, { expireTime: expireTime.replace('Z', '+00:00') })).json();
    t.assert.equal(temp.expireTime, expireTime, 'stored and shown in UTC');
    t.assert.equal((await verifyClientSecret(f.db, client.clientId, temp.clientSecret)).ok, true);

    await expireNow(f, temp.secretId);
    t.assert.deepEqual(await verifyClientSecret(f.db, client.clientId, temp.clientSecret), { ok: false, code: 'SECRET_INVALID' });
    const listed = (await f.call('GET', `${base}/${client.clientId}/secrets`)).json().secrets;
    t.assert.equal(listed.find((s: { secretId: string }) => s.secretId === temp.secretId).state, 'EXPIRED');

    for (const [value, field] of [
      [new Date(Date.now() - 60_000).toISOString(), 'expireTime'],
      ['2030-02-30T00:00:00Z', 'expireTime'],
      ['2030-12-31T23:59:60Z', 'expireTime'],
      ['tomorrow', 'expireTime'],
      ['1e99', 'expireTime'],
    ]) {
      const res = await f.call('POST', `${base}/${client.clientId}/secrets`, { expireTime: value });
      t.assert.equal(res.statusCode, 400, `${value}: ${res.body}`);
      t.assert.deepEqual(violatedFields(res), [field], value);
    }
  });

  test(`[${dialect}] at most ${MAX_ACTIVE_SECRETS} active secrets; public clients have none`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const client = await confidentialClient(f);
    const added = await Promise.all(
      Array.from({ length: MAX_ACTIVE_SECRETS + 2 }, () => f.call('POST', `${base}/${client.clientId}/secrets`, {})),
    );
    t.assert.equal(added.filter((r) => r.statusCode === 201).length, MAX_ACTIVE_SECRETS - 1, 'concurrent adds cannot overrun the cap');
    const refused = added.find((r) => r.statusCode !== 201)!;
    t.assert.equal(refused.statusCode, 400);
    t.assert.equal(envelope(refused).status, 'FAILED_PRECONDITION');

    await expireNow(f, added.find((r) => r.statusCode === 201)!.json().secretId);
    t.assert.equal((await f.call('POST', `${base}/${client.clientId}/secrets`, {})).statusCode, 201, 'an expired secret frees its slot');
    await f.call('DELETE', `${base}/${client.clientId}/secrets/${client.clientSecretId}`);
    t.assert.equal((await f.call('POST', `${base}/${client.clientId}/secrets`, {})).statusCode, 201, 'a revoked one too');

    const pub = (await f.call('POST', base, { ...webClient, tokenEndpointAuthMethod: 'none' })).json();
    const res = await f.call('POST', `${base}/${pub.clientId}/secrets`, {});
    t.assert.equal(res.statusCode, 400);
    t.assert.equal(envelope(res).status, 'FAILED_PRECONDITION');
    t.assert.deepEqual((await f.call('GET', `${base}/${pub.clientId}/secrets`)).json(), { secrets: [] });
  });

  test(`[${dialect}] verifyClientSecret refuses malformed, foreign and stale secrets`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const client = await confidentialClient(f);
    const other = (await f.call('POST', '/api/projects/globex-app/oauth-clients', webClient, f.tokenB)).json();
    const s = client.clientSecret;
    const flipped = s.slice(0, 20) + (s[20] === 'A' ? 'B' : 'A') + s.slice(21);

    const cases: Array<[string, string, string]> = [
      [client.clientId, flipped, 'SECRET_MALFORMED'],
      [client.clientId, '', 'SECRET_MALFORMED'],
      [client.clientId, 'x'.repeat(100_000), 'SECRET_MALFORMED'],
      [client.clientId, generateSecret('api_key').secret, 'SECRET_MALFORMED'],
      [client.clientId, generateSecret('client_secret').secret, 'SECRET_INVALID'],
      [client.clientId, other.clientSecret, 'SECRET_INVALID'],
      [other.clientId, s, 'SECRET_INVALID'],
      ['oc-nope', s, 'CLIENT_UNKNOWN'],
      ['', s, 'CLIENT_UNKNOWN'],
    ];
    for (const [clientId, secret, code] of cases) {
      t.assert.deepEqual(await verifyClientSecret(f.db, clientId, secret), { ok: false, code }, `${clientId} ${secret.slice(0, 30)}`);
    }
    t.assert.deepEqual(await verifyClientSecret(f.db, client.clientId, s, 'another-pepper-value'), { ok: false, code: 'SECRET_INVALID' });

    const ok = await verifyClientSecret(f.db, client.clientId, s);
    t.assert.equal(ok.ok, true);
    const used = (await f.call('GET', `${base}/${client.clientId}/secrets`)).json().secrets[0];
    t.assert.ok(used.lastUsedTime, 'lastUsedTime is recorded');

    t.assert.equal((await f.call('DELETE', '/api/projects/acme-app')).statusCode, 200);
    t.assert.deepEqual(await verifyClientSecret(f.db, client.clientId, s), { ok: false, code: 'CLIENT_UNKNOWN' });
  });

  test(`[${dialect}] with a pepper, the stored hash is an HMAC and verification uses it`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect, { SECRET_PEPPER: 'a-long-pepper-for-tests' });
    const client = await confidentialClient(f);
    const row = await f.db
      .selectFrom('oauth_client_secrets')
      .selectAll()
      .where('secret_id', '=', client.clientSecretId)
      .executeTakeFirstOrThrow();
    t.assert.equal(row.secret_hash, hashSecret(client.clientSecret, 'a-long-pepper-for-tests'));
    t.assert.equal((await verifyClientSecret(f.db, client.clientId, client.clientSecret, 'a-long-pepper-for-tests')).ok, true);
    t.assert.equal((await verifyClientSecret(f.db, client.clientId, client.clientSecret)).ok, false);
  });
}
