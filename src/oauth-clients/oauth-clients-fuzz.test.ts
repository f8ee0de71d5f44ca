import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import { envelope, oauthFixture, webClient } from '../../test/helpers/oauth-clients-fixture.ts';

const hostileString = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    'javascript:alert(1)',
    'data:text/html,<script>',
    'https://a.test/cb#x',
    'http://evil.test/cb',
    'https://*.a.test',
    'https://a.test/\r\nX: y',
    '\u0000',
    '../../etc/passwd',
    "' OR 1=1 --",
    '__proto__',
    'constructor',
    'implicit',
    'password',
    'none',
    '9999-12-31T23:59:60Z',
    '2000-01-01T00:00:00Z',
    'x'.repeat(10_000),
    '\ud800',
    'https://ok.test/cb',
  ),
);
const hostileValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 25 }),
  fc.object({ maxDepth: 2 }),
);
const fieldName = fc.constantFrom(
  'clientName',
  'redirectUris',
  'grantTypes',
  'responseTypes',
  'tokenEndpointAuthMethod',
  'clientUri',
  'logoUri',
  'tosUri',
  'policyUri',
  'scope',
  'contacts',
  'displayName',
  'expireTime',
  '__proto__',
  'client_secret',
);
const body = fc.oneof(
  fc.dictionary(fieldName, hostileValue, { maxKeys: 6 }).map((b) => ({ ...webClient, ...b })),
  fc.dictionary(fieldName, hostileValue, { maxKeys: 6 }),
  fc.anything({ maxDepth: 3 }),
  fc.constantFrom('{', '[]', 'null', '"x"', '{"redirectUris": [', '\u0000'),
);
/** encodeURIComponent throws on lone surrogates; then surrogates become U+FFFD (what a client would send). */
function encodePathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}
const pathId = fc.oneof(hostileString.map(encodePathSegment), fc.constantFrom('CLIENT', 'SECRET', 'oc-nope', '%00', '..'));
const route = fc.constantFrom(
  ['POST', '/api/projects/{p}/oauth-clients'],
  ['GET', '/api/projects/{p}/oauth-clients'],
  ['GET', '/api/projects/{p}/oauth-clients/{c}'],
  ['PATCH', '/api/projects/{p}/oauth-clients/{c}'],
  ['DELETE', '/api/projects/{p}/oauth-clients/{c}'],
  ['POST', '/api/projects/{p}/oauth-clients/{c}/secrets'],
  ['GET', '/api/projects/{p}/oauth-clients/{c}/secrets'],
  ['DELETE', '/api/projects/{p}/oauth-clients/{c}/secrets/{s}'],
);

for (const dialect of DIALECTS) {
  test(`[${dialect}] property: hostile bodies, ids and queries never cause a 5xx and always get Google's envelope`, async (t: TestContext) => {
    const f = await oauthFixture(t, dialect);
    const known = (await f.call('POST', '/api/projects/acme-app/oauth-clients', webClient)).json();
    await fc.assert(
      fc.asyncProperty(
        route,
        fc.oneof(fc.constant('acme-app'), fc.constant('globex-app'), pathId),
        fc.oneof(fc.constant(known.clientId), pathId),
        fc.oneof(fc.constant(known.clientSecretId), pathId),
        body,
        fc.option(fc.record({ pageSize: hostileString, pageToken: hostileString }, { requiredKeys: [] })),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'),
        async ([method, template], p, c, s, payload, query, contentType) => {
          const url = template.replace('{p}', p).replace('{c}', c).replace('{s}', s);
          const res = await f.app.inject({
            method: method as 'GET',
            url,
            query: (query ?? undefined) as Record<string, string> | undefined,
            headers: { authorization: `Bearer ${f.tokenA}`, 'content-type': contentType },
            ...(method === 'GET' || method === 'DELETE'
              ? {}
              : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
          });
          t.assert.ok(res.statusCode < 500, `${method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
          if (res.statusCode >= 400) envelope(res);
          if (res.statusCode === 201 && res.json().redirectUris) {
            for (const uri of res.json().redirectUris as string[]) t.assert.equal(redirectUriProblem(uri), null, uri);
          }
        },
      ),
      { numRuns: 300 },
    );
    const stored = await f.db.selectFrom('oauth_clients').select('redirect_uris').execute();
    for (const row of stored) {
      for (const uri of JSON.parse(row.redirect_uris) as string[]) t.assert.equal(redirectUriProblem(uri), null, uri);
    }
  });
}
