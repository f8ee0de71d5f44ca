import { test, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../src/db/database.ts';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { assertError, createTestAccount, setupProject, type TestAccount } from './helpers/common-route-tests.ts';

/**
 * The Vision routes' contract that does not need the engine to read anything: authentication and
 * policy, proto3 JSON validation, limits, per-entry refusals, rate limit, usage and the console
 * playground. What the engine reads is in vision-conformance.test.ts.
 */

const PATH = '/api/vision/v1/images:annotate';
/** An entry the engine never sees: only a feature we do not serve. */
const LABELS_ONLY = { image: { content: 'AAAA' }, features: [{ type: 'LABEL_DETECTION' }] };

interface Fixture {
  app: FastifyInstance;
  database: DatabaseHandle;
  owner: TestAccount;
  stranger: TestAccount;
  projectId: string;
  key: string;
}

async function fixture(t: TestContext, dialect: (typeof DIALECTS)[number]): Promise<Fixture> {
  const { app, database } = await buildTestApp(t, dialect);
  const owner = await createTestAccount(database, 'acme');
  const stranger = await createTestAccount(database, 'globex');
  const { projectId, keyString } = await setupProject(app, owner, 'vision-project', { apis: ['ocr'], key: {} });
  await setupProject(app, stranger, 'globex-project', { apis: ['ocr'], key: {} });
  return { app, database, owner, stranger, projectId, key: keyString! };
}

function annotate(f: Fixture, body: unknown, opts: { url?: string; headers?: Record<string, string> } = {}) {
  return f.app.inject({
    method: 'POST',
    url: opts.url ?? PATH,
    headers: { 'x-goog-api-key': f.key, ...opts.headers },
    payload: body as object,
  });
}

function violationFields(res: { json(): any }): string[] {
  const details: any[] = res.json().error.details ?? [];
  return details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')?.fieldViolations.map((v: any) => v.field) ?? [];
}

for (const dialect of DIALECTS) {
  test(`[${dialect}] images:annotate: credentials in every Google place, both paths`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const body = { requests: [LABELS_ONLY] };
    assertError(t, await f.app.inject({ method: 'POST', url: PATH, payload: body }), 401, 'CREDENTIALS_MISSING');
    assertError(
      t,
      await annotate(f, body, { headers: { 'x-goog-api-key': 'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe' } }),
      401,
      'API_KEY_INVALID',
    );
    assertError(
      t,
      await annotate(f, body, { headers: { 'x-goog-api-key': '', authorization: `Bearer ${f.owner.token}` } }),
      401,
      'ACCESS_TOKEN_TYPE_UNSUPPORTED',
    );

    const ways: Array<{ url: string; headers: Record<string, string> }> = [
      { url: PATH, headers: { 'x-goog-api-key': f.key } },
      { url: PATH, headers: { 'x-goog-api-key': '', authorization: `Bearer ${f.key}` } },
      { url: `${PATH}?key=${f.key}`, headers: { 'x-goog-api-key': '' } },
      { url: '/v1/images:annotate', headers: { 'x-goog-api-key': f.key } },
      // What Google's Node client sends: `$alt=json%3Benum-encoding=int`; and fully encoded.
      { url: '/v1/images:annotate?$alt=json%3Benum-encoding=int', headers: {} },
      {
        url: '/v1/images:annotate?%24alt=json%3Benum-encoding%3Dint&prettyPrint=false&%24.xgafv=2&quotaUser=u&alt=json&fields=responses',
        headers: {},
      },
    ];
    for (const way of ways) {
      const res = await annotate(f, body, way);
      t.assert.equal(res.statusCode, 200, `${way.url}: ${res.body}`);
      t.assert.match(res.headers['content-type'] as string, /^application\/json/);
      t.assert.deepEqual(res.json(), {
        responses: [
          {
            error: {
              code: 12,
              message: 'Feature LABEL_DETECTION is not implemented by this server; supported: TEXT_DETECTION, DOCUMENT_TEXT_DETECTION.',
            },
          },
        ],
      });
    }
    const pretty = await annotate(f, body, { url: `${PATH}?prettyPrint=true` });
    t.assert.match(pretty.body, /^\{\n {2}"responses"/);
  });

  test(`[${dialect}] images:annotate: key restrictions refused with Google's reasons`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const body = { requests: [LABELS_ONLY] };
    const sha1 = 'DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09';
    const cases: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      [{ services: ['navigation'] }, {}, 'API_KEY_SERVICE_BLOCKED'],
      [{ allowedIps: ['203.0.113.0/24'] }, {}, 'API_KEY_IP_ADDRESS_BLOCKED'],
      [{ allowedReferrers: ['https://app.example.com/*'] }, { referer: 'https://evil.example.net/' }, 'API_KEY_HTTP_REFERRER_BLOCKED'],
      [
        { androidApps: [{ packageName: 'com.example.ocr', sha1Fingerprint: sha1 }] },
        { 'x-android-package': 'com.example.other', 'x-android-cert': sha1.replace(/:/g, '').toLowerCase() },
        'API_KEY_ANDROID_APP_BLOCKED',
      ],
      [{ iosBundleIds: ['com.example.ocr'] }, { 'x-ios-bundle-identifier': 'com.example.other' }, 'API_KEY_IOS_APP_BLOCKED'],
    ];
    for (const [restrictions, headers, reason] of cases) {
      if (restrictions.services) {
        await f.app.inject({
          method: 'POST',
          url: `/api/projects/${f.projectId}/apis`,
          headers: f.owner.headers,
          payload: { api: 'navigation' },
        });
      }
      const created = await f.app.inject({
        method: 'POST',
        url: `/api/projects/${f.projectId}/api-keys`,
        headers: f.owner.headers,
        payload: { restrictions },
      });
      t.assert.equal(created.statusCode, 201, created.body);
      const key = created.json().keyString;
      assertError(t, await annotate(f, body, { headers: { 'x-goog-api-key': key, ...headers } }), 403, reason);
    }
    // The allowed Android app and iOS bundle pass.
    const android = await f.app.inject({
      method: 'POST',
      url: `/api/projects/${f.projectId}/api-keys`,
      headers: f.owner.headers,
      payload: { restrictions: { androidApps: [{ packageName: 'com.example.ocr', sha1Fingerprint: sha1 }] } },
    });
    const ok = await annotate(f, body, {
      headers: {
        'x-goog-api-key': android.json().keyString,
        'x-android-package': 'com.example.ocr',
        'x-android-cert': sha1.replace(/:/g, '').toLowerCase(),
      },
    });
    t.assert.equal(ok.statusCode, 200, ok.body);
  });

  test(`[${dialect}] images:annotate: SERVICE_DISABLED when ocr is off or the project deleted`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const body = { requests: [LABELS_ONLY] };
    const off = await f.app.inject({ method: 'DELETE', url: `/api/projects/${f.projectId}/apis/ocr`, headers: f.owner.headers });
    t.assert.equal(off.statusCode, 200, off.body);
    const disabled = await annotate(f, body);
    assertError(t, disabled, 403, 'SERVICE_DISABLED');
    t.assert.match(disabled.json().error.message, /POST \/api\/projects\/vision-project\/apis/);
    await f.app.inject({ method: 'POST', url: `/api/projects/${f.projectId}/apis`, headers: f.owner.headers, payload: { api: 'ocr' } });
    t.assert.equal((await annotate(f, body)).statusCode, 200);
    await f.app.inject({ method: 'DELETE', url: `/api/projects/${f.projectId}`, headers: f.owner.headers });
    assertError(t, await annotate(f, body), 403, 'SERVICE_DISABLED');
  });

  test(`[${dialect}] images:annotate: proto3 JSON validation → 400 with field violations`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const cases: Array<[unknown, string, RegExp]> = [
      [{ requests: [{ images: {} }] }, 'requests[0]', /Unknown name "images" at 'requests\[0\]': Cannot find field/],
      [
        { requests: [{ image: { content: 'data:image/jpg;base64,' }, features: [{ type: 5 }] }] },
        'requests[0].image.content',
        /\(TYPE_BYTES\), Base64 decoding failed for "data:image\/jpg;base64,"/,
      ],
      [
        { requests: [{ image: { content: 'AAAA' }, features: [{ type: 'TEXT' }] }] },
        'requests[0].features[0].type',
        /google\.cloud\.vision\.v1\.Feature\.Type\), "TEXT"/,
      ],
      [{ requests: [{ image: { content: 'AAAA' }, features: [{ type: 99 }] }] }, 'requests[0].features[0].type', /Feature\.Type\), 99/],
      [{ requests: Array.from({ length: 17 }, () => LABELS_ONLY) }, 'requests', /at most 16 entries/],
      [{ requests: [] }, 'requests', /at least 1/],
      [{}, 'requests', /Missing required field/],
      [[LABELS_ONLY], 'request', /BatchAnnotateImagesRequest/],
    ];
    for (const [body, field, message] of cases) {
      const res = await annotate(f, body);
      assertError(t, res, 400);
      t.assert.equal(res.json().error.status, 'INVALID_ARGUMENT');
      t.assert.deepEqual(violationFields(res).slice(0, 1), [field], res.body);
      t.assert.match(res.json().error.message, message);
    }
    // snake_case, integer enums, URL-safe unpadded base64, labels and parent are all fine.
    const ok = await annotate(f, {
      requests: [
        {
          image: { content: Buffer.from([0xfb, 0xff]).toString('base64url') },
          features: [{ type: 4, max_results: '3' }],
          image_context: { language_hints: ['en'] },
        },
      ],
      labels: {},
      parent: 'projects/vision-project/locations/eu',
    });
    t.assert.equal(ok.statusCode, 200, ok.body);
    // Query parameters outside Google's system parameters are refused, like Google does.
    const q = await annotate(f, { requests: [LABELS_ONLY] }, { url: `${PATH}?foo=1` });
    assertError(t, q, 400);
    t.assert.match(q.json().error.message, /Unknown name "foo"/);
    assertError(t, await annotate(f, { requests: [LABELS_ONLY] }, { url: `${PATH}?alt=proto` }), 400);
    // Malformed JSON, wrong media type.
    const bad = await f.app.inject({
      method: 'POST',
      url: PATH,
      headers: { 'x-goog-api-key': f.key, 'content-type': 'application/json' },
      payload: '{"requests": [',
    });
    assertError(t, bad, 400);
    t.assert.match(bad.json().error.message, /^Invalid JSON payload received/);
    const text = await f.app.inject({
      method: 'POST',
      url: PATH,
      headers: { 'x-goog-api-key': f.key, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    assertError(t, text, 415);
  });

  test(`[${dialect}] images:annotate: 10 MB body → 413 in Google's envelope`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const content = 'A'.repeat(10 * 1024 * 1024 + 4);
    const res = await annotate(f, { requests: [{ image: { content }, features: [{ type: 'TEXT_DETECTION' }] }] });
    assertError(t, res, 413, 'REQUEST_TOO_LARGE');
  });

  test(`[${dialect}] images:annotate: per-entry refusals keep the batch's order and status 200`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const res = await annotate(f, {
      requests: [
        LABELS_ONLY,
        { features: [{ type: 'TEXT_DETECTION' }] },
        { image: { content: 'AAAA' } },
        { image: { content: 'AAAA' }, features: [{ type: 'TEXT_DETECTION' }], imageContext: { languageHints: ['xx'] } },
        { image: { content: 'AAAA' }, features: [{ type: 'TEXT_DETECTION' }], imageContext: { languageHints: ['not a tag'] } },
        { image: { source: { imageUri: 'https://example.com/a.jpg' } }, features: [{ type: 'TEXT_DETECTION' }] },
        { image: { source: { gcsImageUri: 'gs://bucket/a.jpg' } }, features: [{ type: 'TEXT_DETECTION' }] },
        { image: { source: { imageUri: 'gs://bucket/a.jpg' } }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] },
      ],
    });
    t.assert.equal(res.statusCode, 200, res.body);
    const codes = res.json().responses.map((r: any) => r.error?.code);
    t.assert.deepEqual(codes, [12, 3, 3, 3, 3, 7, 3, 3]);
    const messages = res.json().responses.map((r: any) => r.error.message);
    t.assert.match(messages[3], /Unsupported language hint "xx"/);
    t.assert.match(messages[5], /IMAGE_URI_FETCH is off/);
    t.assert.match(messages[6], /gs:\/\//);
  });

  test(`[${dialect}] images:annotate: the project's rate limit → 429 RATE_LIMIT_EXCEEDED with Retry-After`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const quota = await f.app.inject({
      method: 'PATCH',
      url: `/api/projects/${f.projectId}/apis/ocr`,
      headers: f.owner.headers,
      payload: { quota: { requestsPerMinute: 2 } },
    });
    t.assert.equal(quota.statusCode, 200, quota.body);
    const body = { requests: [LABELS_ONLY] };
    const first = await annotate(f, body);
    t.assert.equal(first.headers['x-ratelimit-limit'], '2');
    const second = await annotate(f, body);
    t.assert.equal(second.statusCode, 200);
    // The playground spends the same budget.
    const third = await f.app.inject({
      method: 'POST',
      url: `/api/projects/${f.projectId}/ocr:annotate`,
      headers: f.owner.headers,
      payload: body,
    });
    assertError(t, third, 429, 'RATE_LIMIT_EXCEEDED');
    t.assert.equal(third.json().error.status, 'RESOURCE_EXHAUSTED');
    t.assert.ok(Number(third.headers['retry-after']) >= 1 && Number(third.headers['retry-after']) <= 60);
    t.assert.equal(third.headers['x-ratelimit-limit'], '2');
    t.assert.equal(third.headers['x-ratelimit-remaining'], '0');
    t.assert.ok(Number(third.headers['x-ratelimit-reset']) >= 1);
    // Another project's budget is its own.
    const other = await setupProject(f.app, f.owner, 'second-project', { apis: ['ocr'], key: {} });
    t.assert.equal((await annotate(f, body, { headers: { 'x-goog-api-key': other.keyString! } })).statusCode, 200);
  });

  test(`[${dialect}] usage: counted per project, api, day and outcome; tenant-isolated`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const two = { requests: [LABELS_ONLY, LABELS_ONLY] };
    await annotate(f, two);
    await annotate(f, two);
    await annotate(f, { requests: [{ bogus: 1 }] });
    await f.app.inject({ method: 'POST', url: PATH, payload: two }); // anonymous: nobody to charge
    const today = new Date().toISOString().slice(0, 10);
    const res = await f.app.inject({
      method: 'GET',
      url: `/api/projects/${f.projectId}/usage?from=${today}&to=${today}`,
      headers: f.owner.headers,
    });
    t.assert.equal(res.statusCode, 200, res.body);
    const { usage, totals, ...range } = res.json();
    t.assert.deepEqual(range, { from: today, to: today });
    // Each request read images, so each has a latency sample (its value depends on this machine).
    t.assert.deepEqual(
      usage.map(({ latency, ...entry }: any) => ({ ...entry, samples: latency.samples })),
      [
        { date: today, api: 'ocr', outcome: 'client_error', requests: 1, images: 1, samples: 1 },
        { date: today, api: 'ocr', outcome: 'ok', requests: 2, images: 4, samples: 2 },
      ],
    );
    t.assert.deepEqual(
      totals.map(({ latency, ...total }: any) => ({ ...total, samples: latency.samples })),
      [{ api: 'ocr', requests: 3, images: 5, errors: 1, samples: 2 }],
    );
    const p = totals[0].latency;
    t.assert.ok(p.p50Ms >= 0 && p.p50Ms <= p.p95Ms && p.p95Ms <= p.p99Ms, JSON.stringify(p));
    const defaults = await f.app.inject({ method: 'GET', url: `/api/projects/${f.projectId}/usage`, headers: f.owner.headers });
    t.assert.equal(defaults.json().usage.length, 2);
    t.assert.equal(defaults.json().to, today);
    const past = await f.app.inject({
      method: 'GET',
      url: `/api/projects/${f.projectId}/usage?from=2020-01-01&to=2020-01-31`,
      headers: f.owner.headers,
    });
    t.assert.deepEqual(past.json().usage, []);

    assertError(
      t,
      await f.app.inject({ method: 'GET', url: `/api/projects/${f.projectId}/usage`, headers: f.stranger.headers }),
      404,
      'NOT_FOUND',
    );
    for (const query of [
      'from=2024-13-01',
      'from=yesterday',
      'from=2024-02-30',
      'from=2024-03-01&to=2024-02-01',
      'from=2020-01-01&to=2024-01-01',
      'x=1',
      'groupBy=api',
      'groupBy=',
    ]) {
      assertError(
        t,
        await f.app.inject({ method: 'GET', url: `/api/projects/${f.projectId}/usage?${query}`, headers: f.owner.headers }),
        400,
      );
    }
  });

  test(`[${dialect}] usage by key: each key, the console playground, a revoked key keeps its name`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const body = { requests: [LABELS_ONLY] };
    const second = await f.app.inject({
      method: 'POST',
      url: `/api/projects/${f.projectId}/api-keys`,
      headers: f.owner.headers,
      payload: { displayName: 'Batch job' },
    });
    t.assert.equal(second.statusCode, 201, second.body);
    const { keyId: batchId, keyString: batchKey } = second.json();
    const first = (await f.app.inject({ method: 'GET', url: `/api/projects/${f.projectId}/api-keys`, headers: f.owner.headers }))
      .json()
      .apiKeys.find((k: { keyId: string }) => k.keyId !== batchId);
    const firstId: string = first.keyId;
    for (let i = 0; i < 3; i++) t.assert.equal((await annotate(f, body)).statusCode, 200);
    t.assert.equal(
      (await annotate(f, { requests: [LABELS_ONLY, LABELS_ONLY] }, { headers: { 'x-goog-api-key': batchKey } })).statusCode,
      200,
    );
    t.assert.equal((await annotate(f, { requests: [{ bogus: 1 }] }, { headers: { 'x-goog-api-key': batchKey } })).statusCode, 400);
    const playground = await f.app.inject({
      method: 'POST',
      url: `/api/projects/${f.projectId}/ocr:annotate`,
      headers: f.owner.headers,
      payload: body,
    });
    t.assert.equal(playground.statusCode, 200, playground.body);
    t.assert.equal(
      (await f.app.inject({ method: 'DELETE', url: `/api/projects/${f.projectId}/api-keys/${batchId}`, headers: f.owner.headers }))
        .statusCode,
      200,
    );

    const today = new Date().toISOString().slice(0, 10);
    const res = await f.app.inject({ method: 'GET', url: `/api/projects/${f.projectId}/usage?groupBy=key`, headers: f.owner.headers });
    t.assert.equal(res.statusCode, 200, res.body);
    const { usage, totals } = res.json();
    t.assert.deepEqual(
      usage.map((e: any) => [e.date, e.key, e.outcome, e.requests, e.images]),
      [
        [today, batchId, 'client_error', 1, 1],
        [today, batchId, 'ok', 1, 2],
        [today, 'console', 'ok', 1, 1],
        [today, firstId, 'ok', 3, 3],
      ].sort((a, b) => String(a[1]).localeCompare(String(b[1])) || String(a[2]).localeCompare(String(b[2]))),
    );
    t.assert.equal(totals.length, 1);
    t.assert.deepEqual(
      { ...totals[0], latency: undefined, keys: undefined },
      { api: 'ocr', requests: 6, images: 7, errors: 1, latency: undefined, keys: undefined },
    );
    t.assert.equal(totals[0].latency.samples, 5, 'successful requests only');
    t.assert.deepEqual(
      totals[0].keys.map(({ latency, ...k }: any) => ({ ...k, samples: latency?.samples })),
      [
        { key: firstId, displayName: first.displayName, requests: 3, images: 3, errors: 0, samples: 3 },
        { key: batchId, displayName: 'Batch job', revoked: true, requests: 2, images: 3, errors: 1, samples: 1 },
        { key: 'console', requests: 1, images: 1, errors: 0, samples: 1 },
      ],
    );
    for (const k of totals[0].keys) t.assert.ok(k.latency.p50Ms <= k.latency.p95Ms && k.latency.p95Ms <= k.latency.p99Ms);
    // Without groupBy the same requests add up per day, api and outcome.
    const plain = (await f.app.inject({ method: 'GET', url: `/api/projects/${f.projectId}/usage`, headers: f.owner.headers })).json();
    t.assert.deepEqual(
      plain.usage.map((e: any) => [e.outcome, e.requests, e.images, 'key' in e]),
      [
        ['client_error', 1, 1, false],
        ['ok', 5, 6, false],
      ],
    );
    t.assert.equal(plain.totals[0].keys, undefined);
    // Another project's usage shows none of these.
    const other = (
      await f.app.inject({ method: 'GET', url: '/api/projects/globex-project/usage?groupBy=key', headers: f.stranger.headers })
    ).json();
    t.assert.deepEqual([other.usage, other.totals], [[], []]);
  });

  // The account-token matrix of the playground and usage routes runs in test/route-auth-matrix.test.ts.
  test(`[${dialect}] playground route: answers the owner, SERVICE_DISABLED once the api is disabled`, async (t: TestContext) => {
    const f = await fixture(t, dialect);
    const body = { requests: [LABELS_ONLY] };
    // files:annotate's per-file error (no rendering): the playground's file route answers like the key route.
    const fileBody = { requests: [{ inputConfig: { content: 'AAAA', mimeType: 'text/plain' }, features: [{ type: 'TEXT_DETECTION' }] }] };
    const ok = await f.app.inject({
      method: 'POST',
      url: `/api/projects/${f.projectId}/ocr:annotate`,
      headers: f.owner.headers,
      payload: body,
    });
    t.assert.equal(ok.statusCode, 200, ok.body);
    t.assert.equal(ok.json().responses[0].error.code, 12);
    const file = await f.app.inject({
      method: 'POST',
      url: `/api/projects/${f.projectId}/ocr:annotateFiles`,
      headers: f.owner.headers,
      payload: fileBody,
    });
    t.assert.equal(file.statusCode, 200, file.body);
    t.assert.equal(file.json().responses[0].error.code, 3);
    t.assert.match(file.json().responses[0].error.message, /mimeType/);
    assertError(
      t,
      await f.app.inject({
        method: 'POST',
        url: `/api/projects/${f.projectId}/ocr:annotateFiles`,
        headers: f.owner.headers,
        payload: { requests: [] },
      }),
      400,
    );
    await f.app.inject({ method: 'DELETE', url: `/api/projects/${f.projectId}/apis/ocr`, headers: f.owner.headers });
    assertError(
      t,
      await f.app.inject({ method: 'POST', url: `/api/projects/${f.projectId}/ocr:annotate`, headers: f.owner.headers, payload: body }),
      403,
      'SERVICE_DISABLED',
    );
    assertError(
      t,
      await f.app.inject({
        method: 'POST',
        url: `/api/projects/${f.projectId}/ocr:annotateFiles`,
        headers: f.owner.headers,
        payload: fileBody,
      }),
      403,
      'SERVICE_DISABLED',
    );
  });
}
