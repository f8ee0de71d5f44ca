import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, platformSetupRoutes, setupProject } from './helpers/common-route-tests.ts';

/**
 * Issue 16, item 6: numbers are finite numbers at the schema. `"Infinity"`, `"-Infinity"` and
 * `"1e309"` (and the JSON literal 1e309, which parses to Infinity) are refused with 400 and nothing is
 * committed; a property test over every setup route's body and query finds no 5xx.
 */
const NON_FINITE = ['"Infinity"', '"-Infinity"', '"1e309"', '1e309', '-1e309', '"NaN"', '"1e999"'];

for (const dialect of DIALECTS) {
  test(`[${dialect}] non-finite numbers are 400 and change nothing`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect, { OCR_WARM: 'false' });
    const acme = await createTestAccount(database, 'acme');
    const { projectId, keyId } = await setupProject(app, acme, 'numbers-project', { apis: ['ocr'], key: {} });
    const call = (method: 'PATCH' | 'POST' | 'GET', url: string, raw?: string) =>
      app.inject({ method, url, headers: { ...acme.headers, 'content-type': 'application/json' }, ...(raw ? { payload: raw } : {}) });
    for (const value of NON_FINITE) {
      const quota = await call('PATCH', `/api/projects/${projectId}/apis/ocr`, `{"quota":{"requestsPerMinute":${value}}}`);
      t.assert.equal(quota.statusCode, 400, `quota ${value}: ${quota.body.slice(0, 200)}`);
      const rotate = await call('POST', `/api/projects/${projectId}/api-keys/${keyId}:rotate`, `{"graceSeconds":${value}}`);
      t.assert.equal(rotate.statusCode, 400, `graceSeconds ${value}: ${rotate.body.slice(0, 200)}`);
      const page = await call(
        'GET',
        `/api/projects/${projectId}/api-keys?pageSize=${encodeURIComponent(JSON.parse(value.startsWith('"') ? value : `"${value}"`))}`,
      );
      t.assert.equal(page.statusCode, 400, `pageSize ${value}: ${page.body.slice(0, 200)}`);
    }
    // Nothing was committed: the quota is the default, every list still answers.
    const apis = await call('GET', `/api/projects/${projectId}/apis`);
    t.assert.equal(apis.statusCode, 200, apis.body.slice(0, 200));
    t.assert.equal(apis.json().apis.find((a: { api: string }) => a.api === 'ocr').quota.requestsPerMinute, 600);
    t.assert.equal((await call('GET', '/api/apis')).statusCode, 200);
    const audit = await call('GET', '/api/accounts/acme/audit-log?pageSize=1000');
    t.assert.equal(audit.statusCode, 200);
    t.assert.ok(!audit.body.includes('null'), `no audit entry records null: ${audit.body.slice(0, 300)}`);
  });

  test(`[${dialect}] property: numbers in every setup route's body and query never cause a 5xx`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect, { OCR_WARM: 'false' });
    const acme = await createTestAccount(database, 'acme');
    const { projectId, keyId } = await setupProject(app, acme, 'numbers-project', { apis: ['ocr'], key: {} });
    const routes = platformSetupRoutes({ accountId: 'acme', projectId, keyId: keyId! }).filter((r) => r.method !== 'DELETE');
    const number = fc.oneof(
      fc.constantFrom(...NON_FINITE),
      fc.double().map((d) => JSON.stringify(String(d))),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
      fc.integer().map(String),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
      fc.constantFrom('"0x10"', '"  5 "', '""', 'true', 'null', '[]', '[5]', '"5"', '-0', '0.5'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        number,
        fc.constantFrom('requestsPerMinute', 'graceSeconds', 'pageSize', 'expireTime'),
        async (route, value, field) => {
          const raw = field === 'requestsPerMinute' ? `{"quota":{"requestsPerMinute":${value}}}` : `{"${field}":${value}}`;
          const queryValue = value.startsWith('"') ? (JSON.parse(value) as string) : value;
          const url = `${route.url}${route.url.includes('?') ? '&' : '?'}pageSize=${encodeURIComponent(queryValue)}`;
          const hasBody = route.method !== 'GET';
          const res = await app.inject({
            method: route.method,
            url,
            headers: { ...acme.headers, 'content-type': 'application/json' },
            ...(hasBody ? { payload: raw } : {}),
          });
          if (res.statusCode >= 500) throw new Error(`${route.method} ${url} ${raw} → ${res.statusCode} ${res.body.slice(0, 300)}`);
        },
      ),
      { numRuns: 150 },
    );
  });
}
