import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, platformSetupRoutes, setupProject } from './helpers/common-route-tests.ts';

/** Raw JSON texts a JS object cannot express: prototype-pollution keys, duplicates, deep nesting. */
const HOSTILE_JSON = [
  '{"__proto__":{"polluted":true},"displayName":"x"}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"restrictions":{"__proto__":{"services":["ocr"]}}}',
  '{"projectId":"dup-project-a","projectId":"dup-project-b"}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  `{"displayName":"${'x'.repeat(200_000)}"}`,
  `{"restrictions":{"allowedIps":[${Array.from({ length: 5000 }, () => '"10.0.0.1"').join(',')}]}}`,
  '{"quota":{"requestsPerMinute":1e308}}',
  '{"graceSeconds":-0.5}',
  '{"api":null}',
  'null',
  '"string"',
  '12',
  '{bad json',
  '\u0000',
];

const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom('..', '%2F', '%00', '\u202e', 'ß', '🔥🔥', 'a'.repeat(5000), '__proto__', 'constructor', 'lgb_key_', ' '),
);

const body = fc.oneof(
  fc.constantFrom(...HOSTILE_JSON).map((raw) => ({ raw })),
  fc.anything({ maxDepth: 4, withObjectString: true, withNullPrototype: true }).map((value) => ({ raw: JSON.stringify(value) ?? 'null' })),
  fc
    .record(
      {
        projectId: weirdString,
        displayName: weirdString,
        api: weirdString,
        restrictions: fc.record(
          {
            services: fc.array(weirdString),
            allowedIps: fc.array(weirdString),
            allowedReferrers: fc.array(weirdString),
            iosBundleIds: fc.array(weirdString),
          },
          { requiredKeys: [] },
        ),
        expireTime: fc.oneof(weirdString, fc.integer()),
        graceSeconds: fc.oneof(fc.integer(), fc.double(), weirdString),
        quota: fc.record({ requestsPerMinute: fc.oneof(fc.integer(), fc.double(), weirdString) }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    )
    .map((value) => ({ raw: JSON.stringify(value) })),
);

for (const dialect of DIALECTS) {
  test(`[${dialect}] fuzz: random and hostile bodies, ids, queries and headers never cause a 5xx; errors keep the envelope`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const { projectId, keyId, keyString } = await setupProject(app, acme, 'demo-project', { apis: ['ocr'], key: {} });
    const routes = platformSetupRoutes({ accountId: 'acme', projectId, keyId: keyId! });
    const authorization = fc.oneof(
      { weight: 6, arbitrary: fc.constant(acme.headers.authorization) },
      fc.constant(`Bearer ${keyString}`),
      weirdString.map((s) => `Bearer ${s}`),
      weirdString,
      fc.constant(undefined),
    );

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.option(weirdString, { nil: undefined }),
        fc.option(weirdString, { nil: undefined }),
        body,
        authorization,
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          undefined,
        ),
        fc.option(fc.oneof(weirdString, fc.constant(keyString!)), { nil: undefined, freq: 4 }),
        async (route, idReplacement, queryJunk, b, auth, contentType, apiKeyHeader) => {
          let url = route.url;
          if (idReplacement !== undefined) url = url.replace(/(demo-project|acme|k-[a-z0-9]+)/, encodeURIComponent(idReplacement));
          if (queryJunk !== undefined)
            url += `?pageSize=${encodeURIComponent(queryJunk)}&pageToken=${encodeURIComponent(queryJunk)}&${encodeURIComponent(queryJunk)}=1`;
          const headers: Record<string, string> = {};
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the fuzzer sends.
          if (auth !== undefined) headers.authorization = auth.replace(/[\r\n\u0000]/g, '');
          if (contentType) headers['content-type'] = contentType;
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the fuzzer sends.
          if (apiKeyHeader !== undefined) headers['x-goog-api-key'] = apiKeyHeader.replace(/[\r\n\u0000]/g, '');
          const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
          const res = await app.inject({ method: route.method, url, headers, ...(hasBody ? { payload: b.raw } : {}) });
          if (res.statusCode >= 500) throw new Error(`${route.method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
          if (res.statusCode >= 400) {
            const error = res.json().error;
            if (error?.code !== res.statusCode || typeof error.status !== 'string' || typeof error.message !== 'string') {
              throw new Error(`no envelope: ${res.statusCode} ${res.body.slice(0, 300)}`);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
    t.assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    t.assert.equal((await app.inject('/healthz')).statusCode, 200);
  });
}
