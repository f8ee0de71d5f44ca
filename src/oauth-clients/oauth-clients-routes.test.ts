import { test, type TestContext } from 'node:test';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { generateSecret } from '../credentials/secret-format.ts';
import { envelope, oauthFixture, violatedFields, webClient } from '../../test/helpers/oauth-clients-fixture.ts';

const base = '/api/projects/acme-app/oauth-clients';

for (const dialect of DIALECTS) {
  test(`[${dialect}] OAuth client CRUD with RFC 7591 fields and defaults`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const created = await f.call('POST', base, {
      ...webClient,
      clientUri: 'https://acme.test',
      logoUri: 'https://acme.test/logo.png',
      tosUri: 'https://acme.test/tos',
      policyUri: 'https://acme.test/privacy#data',
      scope: 'ocr.read profile',
      contacts: ['ops@acme.test'],
    });
    t.assert.equal(created.statusCode, 201, created.body);
    const client = created.json();
    t.assert.match(client.clientId, /^oc-[0-9a-z]+$/);
    t.assert.equal(client.name, `projects/acme-app/oauthClients/${client.clientId}`);
    t.assert.equal(client.tokenEndpointAuthMethod, 'client_secret_basic');
    t.assert.deepEqual(client.responseTypes, ['code']);
    t.assert.deepEqual(client.contacts, ['ops@acme.test']);
    t.assert.equal(client.clientIdIssuedAt, Math.floor(Date.parse(client.createTime) / 1000));
    t.assert.match(client.clientSecret, /^lgb_cs_/);
    t.assert.equal(client.clientSecretExpiresAt, 0);

    const got = (await f.call('GET', `${base}/${client.clientId}`)).json();
    t.assert.equal(got.clientName, 'Acme web');
    t.assert.equal(got.clientSecret, undefined);
    t.assert.equal(got.policyUri, 'https://acme.test/privacy#data');

    const patched = await f.call('PATCH', `${base}/${client.clientId}`, {
      clientName: 'Acme web (prod)',
      redirectUris: ['https://app.acme.test/callback', 'http://127.0.0.1:8765/cb'],
      scope: null,
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    t.assert.equal(patched.statusCode, 200, patched.body);
    t.assert.equal(patched.json().clientName, 'Acme web (prod)');
    t.assert.equal(patched.json().scope, undefined);
    t.assert.equal(patched.json().tokenEndpointAuthMethod, 'client_secret_post');
    t.assert.deepEqual(patched.json().grantTypes, ['authorization_code', 'refresh_token']);

    const deleted = await f.call('DELETE', `${base}/${client.clientId}`);
    t.assert.equal(deleted.statusCode, 200);
    t.assert.deepEqual(deleted.json(), {});
    t.assert.equal((await f.call('GET', `${base}/${client.clientId}`)).statusCode, 404);
    t.assert.equal((await f.call('DELETE', `${base}/${client.clientId}`)).statusCode, 404);
    const secretsLeft = await f.db.selectFrom('oauth_client_secrets').selectAll().where('client_id', '=', client.clientId).execute();
    t.assert.equal(secretsLeft.length, 0);

    const audit = await f.db
      .selectFrom('audit_log')
      .select(['action', 'resource_id', 'details'])
      .where('account_id', '=', 'acme')
      .execute();
    const actions = audit.filter((a) => a.action.startsWith('oauth_client')).map((a) => a.action);
    t.assert.deepEqual(actions, ['oauth_client.create', 'oauth_client.update', 'oauth_client.delete']);
    t.assert.ok(!JSON.stringify(audit).includes(client.clientSecret), 'the audit log never holds a secret');
  });

  test(`[${dialect}] public and machine clients`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const native = await f.call('POST', base, {
      clientName: 'Acme iOS',
      redirectUris: ['com.acme.app:/oauth2redirect', 'http://[::1]/cb'],
      tokenEndpointAuthMethod: 'none',
    });
    t.assert.equal(native.statusCode, 201, native.body);
    t.assert.equal(native.json().clientSecret, undefined, 'public clients get no secret');
    const machine = await f.call('POST', base, { grantTypes: ['client_credentials'] });
    t.assert.equal(machine.statusCode, 201, machine.body);
    t.assert.deepEqual(machine.json().responseTypes, []);
    t.assert.deepEqual(machine.json().redirectUris, []);
    t.assert.match(machine.json().clientSecret, /^lgb_cs_/);

    const toPublic = await f.call('PATCH', `${base}/${machine.json().clientId}`, { tokenEndpointAuthMethod: 'none' });
    t.assert.equal(toPublic.statusCode, 400);
    t.assert.deepEqual(violatedFields(toPublic), ['tokenEndpointAuthMethod']);
  });

  test(`[${dialect}] redirect URI and field validation: 400 naming each field`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const cases: Array<[unknown, string[]]> = [
      [{ redirectUris: ['https://ok.test/cb', 'javascript:alert(1)'] }, ['redirectUris[1]']],
      [{ redirectUris: ['data:text/html;base64,PHNjcmlwdD4='] }, ['redirectUris[0]']],
      [{ redirectUris: ['https://ok.test/cb#token'] }, ['redirectUris[0]']],
      [{ redirectUris: ['https://*.ok.test/cb'] }, ['redirectUris[0]']],
      [{ redirectUris: ['http://ok.test/cb'] }, ['redirectUris[0]']],
      [{ redirectUris: ['https://ok.test/cb\r\nLocation: https://evil.test'] }, ['redirectUris[0]']],
      [{ redirectUris: ['https://bücher.test/cb'] }, ['redirectUris[0]']],
      [{ redirectUris: [`https://ok.test/${'a'.repeat(10_000)}`] }, ['redirectUris[0]']],
      [{ redirectUris: ['https://ok.test/cb', 'https://ok.test/cb'] }, ['redirectUris']],
      [{ redirectUris: Array.from({ length: 21 }, (_, i) => `https://ok.test/${i}`) }, ['redirectUris']],
      [{}, ['redirectUris']],
      [{ redirectUris: [] }, ['redirectUris']],
      [{ redirectUris: ['https://ok.test/cb'], grantTypes: ['implicit'] }, ['grantTypes[0]']],
      [{ redirectUris: ['https://ok.test/cb'], grantTypes: ['authorization_code', 'password'] }, ['grantTypes[1]']],
      [{ redirectUris: ['https://ok.test/cb'], responseTypes: ['token'] }, ['responseTypes[0]']],
      [{ redirectUris: ['https://ok.test/cb'], tokenEndpointAuthMethod: 'private_key_jwt' }, ['tokenEndpointAuthMethod']],
      [{ grantTypes: ['client_credentials'], tokenEndpointAuthMethod: 'none' }, ['tokenEndpointAuthMethod']],
      [{ redirectUris: ['https://ok.test/cb'], logoUri: 'javascript:alert(1)' }, ['logoUri']],
      [{ redirectUris: ['https://ok.test/cb'], scope: 'a  b' }, ['scope']],
      [{ redirectUris: ['https://ok.test/cb'], clientName: 'evil\r\nname' }, ['clientName']],
      [{ redirectUris: ['https://ok.test/cb'], contacts: ['not-an-email'] }, ['contacts[0]']],
      [{ redirectUris: ['https://ok.test/cb'], client_secret: 'mine' }, ['client_secret']],
      [{ redirectUris: 'https://ok.test/cb#x' }, ['redirectUris[0]']],
    ];
    for (const [body, expected] of cases) {
      const res = await f.call('POST', base, body);
      t.assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)} → ${res.body.slice(0, 200)}`);
      t.assert.equal(envelope(res).status, 'INVALID_ARGUMENT');
      t.assert.deepEqual(violatedFields(res), expected, JSON.stringify(body).slice(0, 80));
    }
    const count = await f.db
      .selectFrom('oauth_clients')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    t.assert.equal(Number(count.n), 0, 'nothing was stored');

    const ok = (await f.call('POST', base, webClient)).json();
    const badPatch = await f.call('PATCH', `${base}/${ok.clientId}`, { redirectUris: ['https://ok.test/a', 'http://evil.test/b'] });
    t.assert.equal(badPatch.statusCode, 400);
    t.assert.deepEqual(violatedFields(badPatch), ['redirectUris[1]']);
    const noUris = await f.call('PATCH', `${base}/${ok.clientId}`, { redirectUris: [] });
    t.assert.deepEqual(violatedFields(noUris), ['redirectUris']);
    t.assert.deepEqual((await f.call('GET', `${base}/${ok.clientId}`)).json().redirectUris, webClient.redirectUris);

    for (const id of ['x'.repeat(150), 'x'.repeat(10_000), '%00', 'oc-nope%0d%0a']) {
      const res = await f.call('GET', `${base}/${id}`);
      t.assert.ok([400, 404].includes(res.statusCode), `${id.slice(0, 20)} → ${res.statusCode}`);
      envelope(res);
    }
  });

  test(`[${dialect}] pagination with pageSize, pageToken and nextPageToken`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await f.call('POST', base, { ...webClient, clientName: `c${i}` })).json().clientId);
    await f.call('POST', '/api/projects/globex-app/oauth-clients', webClient, f.tokenB);

    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await f.call('GET', `${base}?pageSize=3${token ? `&pageToken=${token}` : ''}`);
      t.assert.equal(res.statusCode, 200, res.body);
      const page = res.json();
      t.assert.ok(page.oauthClients.length <= 3);
      seen.push(...page.oauthClients.map((c: { clientId: string }) => c.clientId));
      t.assert.ok(page.oauthClients.every((c: { clientSecret?: string }) => c.clientSecret === undefined));
      token = page.nextPageToken;
      pages++;
    } while (token);
    t.assert.equal(pages, 3);
    t.assert.deepEqual(seen, ids);

    t.assert.equal((await f.call('GET', `${base}?pageToken=garbage`)).statusCode, 400);
    t.assert.deepEqual(violatedFields(await f.call('GET', `${base}?pageSize=0`)), ['pageSize']);
    t.assert.deepEqual(violatedFields(await f.call('GET', `${base}?pageSize=100000`)), ['pageSize']);
  });

  test(`[${dialect}] tenant isolation: another account's clients answer 404; API keys are refused`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const mine = (await f.call('POST', base, webClient)).json();
    const secret = (await f.call('POST', `${base}/${mine.clientId}/secrets`, {})).json();
    const other = (await f.call('POST', '/api/projects/globex-app/oauth-clients', webClient, f.tokenB)).json();

    const asGlobex: Array<[string, string, unknown?]> = [
      ['GET', `${base}`],
      ['POST', `${base}`, webClient],
      ['GET', `${base}/${mine.clientId}`],
      ['PATCH', `${base}/${mine.clientId}`, { clientName: 'pwned' }],
      ['DELETE', `${base}/${mine.clientId}`],
      ['GET', `${base}/${mine.clientId}/secrets`],
      ['POST', `${base}/${mine.clientId}/secrets`, {}],
      ['DELETE', `${base}/${mine.clientId}/secrets/${secret.secretId}`],
      // Globex's own project, but acme's client id: still 404.
      ['GET', `/api/projects/globex-app/oauth-clients/${mine.clientId}`],
      ['PATCH', `/api/projects/globex-app/oauth-clients/${mine.clientId}`, { clientName: 'pwned' }],
      ['DELETE', `/api/projects/globex-app/oauth-clients/${mine.clientId}/secrets/${secret.secretId}`],
      ['POST', `/api/projects/globex-app/oauth-clients/${mine.clientId}/secrets`, {}],
    ];
    for (const [method, url, body] of asGlobex) {
      const res = await f.call(method as 'GET', url, body, f.tokenB);
      t.assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      t.assert.equal(envelope(res).status, 'NOT_FOUND');
    }
    // acme's client in acme's project but through globex's client id path
    t.assert.equal((await f.call('GET', `${base}/${other.clientId}`)).statusCode, 404);
    const list = (await f.call('GET', '/api/projects/globex-app/oauth-clients', undefined, f.tokenB)).json();
    t.assert.deepEqual(
      list.oauthClients.map((c: { clientId: string }) => c.clientId),
      [other.clientId],
    );
    t.assert.equal((await f.call('GET', `${base}/${mine.clientId}`)).json().clientName, 'Acme web');

    const apiKey = generateSecret('api_key').secret;
    for (const headers of [{ authorization: `Bearer ${apiKey}` }, { 'x-goog-api-key': apiKey }]) {
      const res = await f.app.inject({ method: 'GET', url: base, headers });
      t.assert.equal(res.statusCode, 401);
      t.assert.equal(envelope(res).details?.[0].reason, 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
    }
    const byQuery = await f.app.inject({ method: 'GET', url: `${base}?key=${apiKey}` });
    t.assert.equal(byQuery.statusCode, 401);
    const clientSecretAsToken = await f.call('GET', base, undefined, secret.clientSecret);
    t.assert.equal(clientSecretAsToken.statusCode, 401, 'a client secret is no account token');
    const none = await f.app.inject({ method: 'GET', url: base });
    t.assert.equal(envelope(none).details?.[0].reason, 'CREDENTIALS_MISSING');
  });

  test(`[${dialect}] a DELETE_REQUESTED project: readable, no longer changeable`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const client = (await f.call('POST', base, webClient)).json();
    t.assert.equal((await f.call('DELETE', '/api/projects/acme-app')).statusCode, 200);
    t.assert.equal((await f.call('GET', `${base}/${client.clientId}`)).statusCode, 200);
    const res = await f.call('POST', base, webClient);
    t.assert.equal(res.statusCode, 400);
    t.assert.equal(envelope(res).status, 'FAILED_PRECONDITION');
  });

  test(`[${dialect}] OpenAPI documents every OAuth client route`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const spec = (await f.app.inject('/openapi.json')).json();
    const expected = {
      '/api/projects/{project}/oauth-clients': ['post', 'get'],
      '/api/projects/{project}/oauth-clients/{clientId}': ['get', 'patch', 'delete'],
      '/api/projects/{project}/oauth-clients/{clientId}/secrets': ['post', 'get'],
      '/api/projects/{project}/oauth-clients/{clientId}/secrets/{secretId}': ['delete'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) {
        const op = spec.paths[path]?.[method];
        t.assert.ok(op, `${method} ${path}`);
        t.assert.deepEqual(op.tags, ['oauth-clients']);
        t.assert.deepEqual(op.security, [{ accountToken: [] }]);
      }
    }
  });
}
