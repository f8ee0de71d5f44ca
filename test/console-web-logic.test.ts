import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { boxesOf, fullTextOf, localeOf, polyPoints } from '../console/src/playground/vision-boxes.ts';
import { annotateRequest, curlCommand, parseLanguageHints } from '../console/src/playground/annotate-request.ts';
import { annotateFileRequest, blankPageUrl, documentMimeType, pageInPixels } from '../console/src/playground/document-file.ts';
import { daysBetween, formatLatency, niceScale, toSeries, usageKeyLabel } from '../console/src/usage/usage-series.ts';
import { projectIdProblem, suggestProjectId, PROJECT_ID_RE } from '../console/src/screens/project-id.ts';
import { buildCreateKeyBody, formOf, looksLikeIpOrCidr, restrictionProblems } from '../console/src/screens/create-key-body.ts';
import * as serverRules from '../src/api-keys/key-restriction-formats.ts';
import * as consoleRules from '../console/src/screens/key-restriction-rules.ts';
const { isIpOrCidr } = serverRules;
import { restrictionSummary } from '../console/src/screens/key-restrictions-summary.ts';
import { parseRoute, href } from '../console/src/router.ts';
import { filterAudit } from '../console/src/screens/audit-filter.ts';
import { PROJECT_ID_PATTERN } from '../src/projects/projects-schemas.ts';

/** The console's pure logic (what it sends, what it draws), run in Node without a browser. */

const quad = (x: number, y: number, w: number, h: number) => ({
  vertices: [
    { x, y },
    { x: x + w, y },
    { x: x + w, y: y + h },
    { x, y: y + h },
  ],
});

test('vision boxes: blocks, paragraphs and words from fullTextAnnotation; zero coordinates omitted by proto3 JSON', (t: TestContext) => {
  const response = {
    textAnnotations: [{ description: 'Wake up\n', locale: 'en' }],
    fullTextAnnotation: {
      text: 'Wake up\n',
      pages: [
        {
          blocks: [
            {
              boundingBox: { vertices: [{ x: 10 }, { x: 90 }, { x: 90, y: 20 }, { y: 20 }] },
              paragraphs: [
                {
                  boundingBox: quad(10, 0, 80, 20),
                  words: [
                    {
                      boundingBox: quad(10, 0, 40, 20),
                      confidence: 0.98,
                      symbols: [{ text: 'W' }, { text: 'a' }, { text: 'k' }, { text: 'e' }],
                    },
                    { boundingBox: quad(55, 0, 35, 20), symbols: [{ text: 'u' }, { text: 'p' }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  };
  const boxes = boxesOf(response);
  t.assert.deepEqual(
    boxes.map((b) => [b.level, b.text]),
    [
      ['word', 'Wake'],
      ['word', 'up'],
      ['paragraph', 'Wake up'],
      ['block', 'Wake up'],
    ],
  );
  t.assert.equal(boxes.find((b) => b.level === 'block')!.points, '10,0 90,0 90,20 0,20');
  t.assert.equal(boxes[0].confidence, 0.98);
  t.assert.equal(fullTextOf(response), 'Wake up\n');
  t.assert.equal(localeOf(response), 'en');
});

test('vision boxes: words from textAnnotations when there is no hierarchy; junk draws nothing', (t: TestContext) => {
  const boxes = boxesOf({
    textAnnotations: [
      { description: 'a b' },
      { description: 'a', boundingPoly: quad(0, 0, 5, 5) },
      { description: 'b', boundingPoly: { vertices: [{ x: 1 }] } },
    ],
  });
  t.assert.deepEqual(
    boxes.map((b) => b.text),
    ['a'],
  );
  t.assert.deepEqual(boxesOf(undefined), []);
  t.assert.deepEqual(boxesOf({ error: { code: 3, message: 'Bad image data.' } }), []);
  t.assert.equal(polyPoints(undefined), undefined);
  t.assert.equal(fullTextOf({}), '');
  fc.assert(
    fc.property(
      fc.array(fc.record({ x: fc.option(fc.integer(), { nil: undefined }), y: fc.option(fc.integer(), { nil: undefined }) }), {
        maxLength: 8,
      }),
      (vertices) => {
        const points = polyPoints({ vertices });
        return vertices.length < 3 ? points === undefined : /^(-?\d+,-?\d+ ?)+$/.test(points!);
      },
    ),
  );
});

test('annotate request and curl: the same request, the key as $LEGIBLE_API_KEY, nothing injectable', (t: TestContext) => {
  t.assert.deepEqual(annotateRequest('AAAA', { type: 'TEXT_DETECTION', languageHints: [] }), {
    requests: [{ image: { content: 'AAAA' }, features: [{ type: 'TEXT_DETECTION' }] }],
  });
  t.assert.deepEqual(annotateRequest('AAAA', { type: 'DOCUMENT_TEXT_DETECTION', languageHints: ['en', 'ja'] }), {
    requests: [
      { image: { content: 'AAAA' }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }], imageContext: { languageHints: ['en', 'ja'] } },
    ],
  });
  t.assert.deepEqual(parseLanguageHints(' en, ja ,,en  zh-Hant '), ['en', 'ja', 'zh-Hant']);

  const curl = curlCommand('http://127.0.0.1:8080', "it's $(rm -rf ~).jpg", {
    type: 'TEXT_DETECTION',
    languageHints: ['en', '$(whoami)', '`id`'],
  });
  t.assert.match(curl, /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:8080\/api\/vision\/v1\/images:annotate'/);
  t.assert.ok(curl.includes('Authorization: Bearer $LEGIBLE_API_KEY'));
  t.assert.ok(curl.includes(`base64 < 'it'\\''s $(rm -rf ~).jpg' | tr -d '\\n'`), 'the file name is single-quoted');
  t.assert.ok(
    curl.includes('"languageHints":["en"]') && !curl.includes('whoami') && !curl.includes('`id`'),
    'only tag characters reach the heredoc',
  );
  t.assert.ok(!curlCommand('http://x', 'a\nb.png', { type: 'TEXT_DETECTION', languageHints: [] }).includes('a\nb'));
});

test('usage series: dense days, outcomes split, totals; nice axis scales', (t: TestContext) => {
  t.assert.deepEqual(daysBetween('2024-02-28', '2024-03-01'), ['2024-02-28', '2024-02-29', '2024-03-01']);
  const series = toSeries(
    [
      { date: '2024-03-01', api: 'ocr', outcome: 'ok', requests: 5, images: 7 },
      { date: '2024-03-01', api: 'ocr', outcome: 'client_error', requests: 2, images: 2 },
      { date: '2024-03-02', api: 'ocr', outcome: 'server_error', requests: 1, images: 1 },
      { date: '2023-01-01', api: 'ocr', outcome: 'ok', requests: 99, images: 99 },
    ],
    '2024-03-01',
    '2024-03-02',
    ['navigation'],
  );
  t.assert.deepEqual(
    series.map((s) => s.api),
    ['navigation', 'ocr'],
  );
  const [nav, ocr] = series;
  t.assert.deepEqual([ocr.api, ocr.ok, ocr.clientErrors, ocr.serverErrors, ocr.images], ['ocr', [5, 0], [2, 0], [0, 1], [9, 1]]);
  t.assert.deepEqual(ocr.totals, { requests: 8, images: 10, errors: 3 });
  t.assert.deepEqual([nav.api, nav.totals.requests, nav.ok], ['navigation', 0, [0, 0]]);

  // Entries split by key add up into the same daily series.
  const byKey = toSeries(
    [
      { date: '2024-03-01', api: 'ocr', key: 'k-a', outcome: 'ok', requests: 2, images: 2 },
      { date: '2024-03-01', api: 'ocr', key: 'console', outcome: 'ok', requests: 3, images: 5 },
    ],
    '2024-03-01',
    '2024-03-01',
  );
  t.assert.deepEqual([byKey[0].ok, byKey[0].images], [[5], [7]]);
  t.assert.deepEqual(
    [{ key: 'k-a', displayName: 'Backend' }, { key: 'k-b', displayName: '' }, { key: 'console' }, { key: 'none' }].map(usageKeyLabel),
    ['Backend', 'k-b', 'Console playground', 'No API key'],
  );
  t.assert.deepEqual([undefined, 4, 999.6, 1000, 1234, 9_960, 12_345].map(formatLatency), [
    '—',
    '4 ms',
    '1.0 s',
    '1.0 s',
    '1.2 s',
    '10 s',
    '12 s',
  ]);

  t.assert.deepEqual(niceScale(0), { max: 4, ticks: [0, 1, 2, 3, 4] });
  t.assert.deepEqual(niceScale(2).ticks, [0, 1, 2]);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10_000_000 }), (max) => {
      const s = niceScale(max);
      return s.max >= max && s.ticks[0] === 0 && s.ticks.at(-1) === s.max && s.ticks.length <= 12;
    }),
  );
});

test('project ids: suggestions always satisfy the server pattern; problems are named', (t: TestContext) => {
  t.assert.equal(PROJECT_ID_RE.source, PROJECT_ID_PATTERN);
  t.assert.equal(
    suggestProjectId('Receipts app', () => 0),
    'receipts-app-10000',
  );
  t.assert.equal(
    suggestProjectId('123 ☃ !!', () => 0.5),
    'project-55000',
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (name, r) =>
      PROJECT_ID_RE.test(suggestProjectId(name, () => r)),
    ),
  );
  t.assert.equal(projectIdProblem(''), undefined);
  t.assert.equal(projectIdProblem('abc'), 'Use 6 to 30 characters.');
  t.assert.equal(projectIdProblem('1abcdef'), 'Start with a lowercase letter.');
  t.assert.match(projectIdProblem('abcdef-')!, /hyphen/);
  t.assert.equal(projectIdProblem('receipts-app'), undefined);
});

test('create-key body: one application restriction, trimmed lists, expiry', (t: TestContext) => {
  const base = {
    displayName: '  Backend ',
    services: ['ocr' as const],
    kind: 'none' as const,
    ips: '',
    referrers: '',
    android: [],
    ios: '',
    expiry: 'never',
    customDate: '',
  };
  t.assert.deepEqual(buildCreateKeyBody(base), { displayName: 'Backend', restrictions: { services: ['ocr'] } });
  t.assert.deepEqual(
    buildCreateKeyBody({ ...base, kind: 'ips', ips: '10.0.0.1\n\n 192.168.0.0/16 , 2001:db8::/32', referrers: 'ignored' }).restrictions,
    {
      services: ['ocr'],
      allowedIps: ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32'],
    },
  );
  t.assert.deepEqual(
    buildCreateKeyBody({
      ...base,
      kind: 'android',
      android: [
        { packageName: ' com.a ', sha1Fingerprint: 'AA' },
        { packageName: '', sha1Fingerprint: ' ' },
      ],
    }).restrictions?.androidApps,
    [{ packageName: 'com.a', sha1Fingerprint: 'AA' }],
  );
  t.assert.deepEqual(buildCreateKeyBody({ ...base, kind: 'ios', ios: 'com.a\ncom.b' }).restrictions?.iosBundleIds, ['com.a', 'com.b']);
  t.assert.deepEqual(buildCreateKeyBody({ ...base, services: [] }).restrictions?.services, [], 'no service is an explicit empty list');
  const now = Date.parse('2024-01-01T00:00:00Z');
  t.assert.equal(buildCreateKeyBody({ ...base, expiry: '30', now }).expireTime, '2024-01-31T00:00:00.000Z');
  t.assert.equal(buildCreateKeyBody({ ...base, expiry: 'custom', customDate: '' }).expireTime, undefined);
  t.assert.deepEqual(restrictionSummary({ services: ['ocr'], allowedIps: ['1.1.1.1', '2.2.2.2'] }), ['ocr', '2 IP ranges']);
  t.assert.deepEqual(restrictionSummary({ services: [] }), ['No services']);
});

test('routes: hash paths round-trip; unknown paths fall back to projects', (t: TestContext) => {
  for (const route of [
    { name: 'projects' as const },
    { name: 'project' as const, projectId: 'receipts-app', tab: 'keys' as const },
    { name: 'playground' as const, projectId: 'a b/c' },
    { name: 'playground' as const },
    { name: 'audit' as const },
  ]) {
    const parsed = parseRoute(href(route));
    t.assert.deepEqual(
      parsed,
      route.name === 'playground' && !('projectId' in route) ? { name: 'playground', projectId: undefined } : route,
    );
  }
  t.assert.deepEqual(parseRoute('#/projects/x/bogus'), { name: 'project', projectId: 'x', tab: 'apis' });
  t.assert.deepEqual(parseRoute('#/nowhere'), { name: 'projects' });
  t.assert.deepEqual(parseRoute(''), { name: 'projects' });
});

test('key restrictions are checked as typed: the console agrees with the server on every valid address it accepts', (t: TestContext) => {
  for (const ok of ['127.0.0.1', '10.0.0.0/8', '203.0.113.0/24', '2001:db8::/32', '::1', '0.0.0.0/0'])
    t.assert.ok(looksLikeIpOrCidr(ok), ok);
  for (const bad of ['10.0.0.0/33', '256.1.1.1', '1.2.3', 'example.com', '2001:db8::/129', '1.2.3.4/8/8', '', 'fe80::1%eth0'])
    t.assert.ok(!looksLikeIpOrCidr(bad), bad);
  // Never stricter than the server: whatever the console accepts as IPv4 the server accepts too.
  fc.assert(
    fc.property(
      fc.ipV4(),
      fc.integer({ min: 0, max: 32 }),
      (ip, prefix) => looksLikeIpOrCidr(`${ip}/${prefix}`) && isIpOrCidr(`${ip}/${prefix}`),
    ),
  );
  fc.assert(fc.property(fc.ipV6(), (ip) => !looksLikeIpOrCidr(ip) || isIpOrCidr(ip) || ip.includes('.')));
  const form = {
    ips: '127.0.0.1\n10.0.0.0/33',
    referrers: 'https://ok.example.com/*\nhttp://bad host',
    android: [{ packageName: 'com.example', sha1Fingerprint: 'xyz' }],
    ios: 'com.example.app',
  };
  t.assert.match(restrictionProblems('ips', form)!, /10\.0\.0\.0\/33/);
  t.assert.match(restrictionProblems('referrers', form)!, /bad host/);
  t.assert.match(restrictionProblems('android', form)!, /SHA-1/);
  t.assert.equal(restrictionProblems('ios', form), undefined);
  t.assert.equal(restrictionProblems('none', form), undefined);
  const edit = formOf({
    keyId: 'k1',
    displayName: 'Backend',
    hint: 'x',
    createTime: '2026-01-01T00:00:00Z',
    restrictions: { services: ['ocr'], allowedIps: ['1.2.3.4', '10.0.0.0/8'] },
  } as never);
  t.assert.deepEqual(
    { kind: edit.kind, ips: edit.ips, services: edit.services, displayName: edit.displayName },
    { kind: 'ips', ips: '1.2.3.4\n10.0.0.0/8', services: ['ocr'], displayName: 'Backend' },
  );
});

test("the console's restriction rules are the server's (same answers on generated and hostile input)", (t: TestContext) => {
  const samples = fc.oneof(
    fc.string(),
    fc.domain(),
    fc.webUrl(),
    fc.stringMatching(/^[A-Za-z0-9:.*/_-]{0,60}$/),
    fc.stringMatching(/^[0-9A-Fa-f:]{0,70}$/),
  );
  for (const name of ['isReferrerPattern', 'isAndroidPackage', 'isSha1Fingerprint', 'isIosBundleId'] as const) {
    fc.assert(
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test looks exports up by name.
      fc.property(samples, (v) => consoleRules[name](v) === serverRules[name](v)),
      { numRuns: 2000 },
    );
  }
  t.assert.equal(String(consoleRules.REFERRER_PATTERN), String(serverRules.REFERRER_PATTERN));
});

test('audit filter: by resource type and by text in any column, case-insensitive', (t: TestContext) => {
  const e = (auditId: string, action: string, resourceType: string, details: Record<string, unknown> = {}) =>
    ({
      auditId,
      action,
      resourceType,
      resourceId: `${resourceType}-1`,
      actor: 'token:tok-1',
      createTime: '2026-01-01T00:00:00Z',
      details,
    }) as never;
  const all = [
    e('1', 'project.create', 'project'),
    e('2', 'api_key.update', 'api_key', { fields: ['restrictions'] }),
    e('3', 'api_key.create', 'api_key'),
  ];
  t.assert.deepEqual(
    filterAudit(all, '', '').map((x: { auditId: string }) => x.auditId),
    ['1', '2', '3'],
  );
  t.assert.deepEqual(
    filterAudit(all, 'api_key', '').map((x: { auditId: string }) => x.auditId),
    ['2', '3'],
  );
  t.assert.deepEqual(
    filterAudit(all, '', 'RESTRICTIONS').map((x: { auditId: string }) => x.auditId),
    ['2'],
  );
  t.assert.deepEqual(filterAudit(all, 'project', 'update'), []);
});

test('file pages: PDF/TIFF/GIF go to files:annotate one page at a time; normalized boxes scaled to the page; curl names the page', (t: TestContext) => {
  t.assert.equal(documentMimeType({ name: 'a.pdf', type: 'application/pdf' }), 'application/pdf');
  t.assert.equal(documentMimeType({ name: 'scan.TIF', type: '' }), 'image/tiff');
  t.assert.equal(documentMimeType({ name: 'x.gif', type: 'image/gif' }), 'image/gif');
  t.assert.equal(documentMimeType({ name: 'x.png', type: 'image/png' }), undefined);
  t.assert.equal(documentMimeType({ name: 'x.pdf', type: 'text/plain' }), undefined, 'a declared type wins over the extension');
  t.assert.deepEqual(annotateFileRequest('AAAA', 'application/pdf', 3, { type: 'TEXT_DETECTION', languageHints: ['en'] }), {
    requests: [
      {
        inputConfig: { content: 'AAAA', mimeType: 'application/pdf' },
        features: [{ type: 'TEXT_DETECTION' }],
        pages: [3],
        imageContext: { languageHints: ['en'] },
      },
    ],
  });
  const page = pageInPixels({
    fullTextAnnotation: {
      text: 'Hi',
      pages: [
        {
          width: 600,
          height: 800,
          blocks: [
            { boundingBox: { normalizedVertices: [{ x: 0.1 }, { x: 0.5 }, { x: 0.5, y: 0.5 }, { y: 0.5 }] } as never, paragraphs: [] },
          ],
        },
      ],
    },
  });
  t.assert.deepEqual([page.width, page.height], [600, 800]);
  t.assert.equal(polyPoints(page.response.fullTextAnnotation?.pages?.[0]?.blocks?.[0]?.boundingBox), '60,0 300,0 300,400 0,400');
  t.assert.equal(fullTextOf(page.response), 'Hi');
  t.assert.match(decodeURIComponent(blankPageUrl(600.4, 800)), /width="600" height="800"/);

  const curl = curlCommand('http://x', 'doc.pdf', { type: 'TEXT_DETECTION', languageHints: [] }, { mimeType: 'application/pdf', page: 2 });
  t.assert.ok(
    curl.includes("/api/vision/v1/files:annotate'") && curl.includes('"mimeType":"application/pdf"') && curl.includes('"pages":[2]'),
  );
  const hostile = curlCommand('http://x', 'doc.pdf', { type: 'TEXT_DETECTION', languageHints: [] }, { mimeType: '$(id)', page: 2 });
  t.assert.ok(!hostile.includes('$(id)') && hostile.includes('images:annotate'), 'only known MIME types reach the heredoc');
});
