// `npm run bench:fuzz [-- --requests 10000]`: fuzzed setup requests (bodies, queries, ids, numbers,
// NULs, hostile JSON) against SQLite and, when DATABASE_URL is set, PostgreSQL; prints a table of
// status classes. The issue-16 bar: 0 × 5xx. The in-suite property tests run a few hundred of these.
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Dialect } from '../../src/db/database.ts';
import { createTestDatabase, DIALECTS } from '../../test/helpers/dialects.ts';
import { createTestAccount, platformSetupRoutes, setupProject } from '../../test/helpers/common-route-tests.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string', default: '16' } } });
const REQUESTS = Number(values.requests);

const weird = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '%00',
    'a%00b',
    '\u0000',
    '..',
    '%2F',
    '__proto__',
    'constructor',
    'Infinity',
    '-Infinity',
    '1e309',
    'NaN',
    '-0',
    '0x10',
    'ß',
    '🔥',
    'a'.repeat(3000),
    ' ',
  ),
);
const number = fc.oneof(
  fc.constantFrom('"Infinity"', '"-Infinity"', '"1e309"', '1e309', '-1e309', '"NaN"', 'null', 'true', '[]', '"5"', '0.5', '-1'),
  fc.double().map((d) => JSON.stringify(String(d))),
  fc.integer().map(String),
);
const body = fc.oneof(
  fc.constantFrom(
    '{"__proto__":{"polluted":true},"displayName":"x"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
    '{"displayName":"a\\u0000b"}',
    '{bad json',
    'null',
  ),
  fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc
    .tuple(fc.constantFrom('requestsPerMinute', 'graceSeconds', 'pageSize', 'expireTime'), number)
    .map(([f, n]) => (f === 'requestsPerMinute' ? `{"quota":{"requestsPerMinute":${n}}}` : `{"${f}":${n}}`)),
  fc
    .record(
      {
        projectId: weird,
        displayName: weird,
        api: weird,
        restrictions: fc.record(
          { allowedIps: fc.array(weird, { maxLength: 3 }), allowedReferrers: fc.array(weird, { maxLength: 3 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);

async function run(dialect: Dialect): Promise<{ dialect: string; counts: Record<string, number>; ms: number; first5xx?: string }> {
  const database = await createTestDatabase(dialect);
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', OCR_WORKERS: '1', OCR_WARM: 'false' }), database });
  const acme = await createTestAccount(database, 'acme');
  const { projectId, keyId } = await setupProject(app, acme, 'fuzz-project', { apis: ['ocr'], key: {} });
  const routes = platformSetupRoutes({ accountId: 'acme', projectId, keyId: keyId! }).filter((r) => r.method !== 'DELETE');
  const cases = fc.sample(
    fc.record({
      route: fc.constantFrom(...routes),
      id: fc.option(weird, { nil: undefined }),
      query: fc.option(weird, { nil: undefined }),
      number: number,
      body,
      contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', undefined),
    }),
    { numRuns: REQUESTS, seed: Number(values.seed) },
  );
  const counts: Record<string, number> = { '2xx': 0, '4xx': 0, '5xx': 0 };
  let first5xx: string | undefined;
  const started = performance.now();
  for (const c of cases) {
    let url = c.route.url;
    if (c.id !== undefined) url = url.replace(/(fuzz-project|acme|k-[a-z0-9]+)/, encodeURIComponent(c.id));
    const q = c.query ?? JSON.parse(c.number.startsWith('"') ? c.number : JSON.stringify(c.number));
    url += `?pageSize=${encodeURIComponent(String(q))}&pageToken=${encodeURIComponent(String(c.query ?? ''))}`;
    const headers: Record<string, string> = { ...acme.headers };
    if (c.contentType) headers['content-type'] = c.contentType;
    const hasBody = c.route.method !== 'GET';
    const res = await app.inject({ method: c.route.method, url, headers, ...(hasBody ? { payload: c.body } : {}) });
    const cls = `${Math.floor(res.statusCode / 100)}xx`;
    counts[cls] = (counts[cls] ?? 0) + 1;
    if (res.statusCode >= 500 && !first5xx)
      first5xx = `${c.route.method} ${url.slice(0, 120)} ${c.body.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 160)}`;
  }
  const ms = performance.now() - started;
  await app.close();
  await database.destroy();
  return { dialect, counts, ms, first5xx };
}

const rows = [];
for (const dialect of DIALECTS) rows.push(await run(dialect));
console.log(`\n${REQUESTS} fuzzed setup requests per store (seed ${values.seed})\n`);
console.log('| store | requests | 2xx | 4xx | 5xx | req/s |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const total = Object.values(r.counts).reduce((a, b) => a + b, 0);
  console.log(
    `| ${r.dialect} | ${total} | ${r.counts['2xx']} | ${r.counts['4xx']} | ${r.counts['5xx']} | ${Math.round(total / (r.ms / 1000))} |`,
  );
}
for (const r of rows) if (r.first5xx) console.log(`\nfirst 5xx on ${r.dialect}: ${r.first5xx}`);
if (!DIALECTS.includes('postgres')) console.log('\n(PostgreSQL skipped: set DATABASE_URL=postgres://…)');
process.exit(rows.some((r) => r.counts['5xx'] > 0) ? 1 : 0);
