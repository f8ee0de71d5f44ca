import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { readProtoJson } from '../src/vision/proto-json-reader.ts';
import { BatchAnnotateImagesRequestSchema, type BatchAnnotateImagesRequest } from '../src/vision/vision-request-schema.ts';
import { checkLanguageHint } from '../src/vision/supported-languages.ts';
import { planFeatures } from '../src/vision/vision-features.ts';

const read = (value: unknown) => readProtoJson<BatchAnnotateImagesRequest>(BatchAnnotateImagesRequestSchema, value);

function violations(t: TestContext, value: unknown) {
  const r = read(value);
  t.assert.equal(r.ok, false, `expected violations for ${JSON.stringify(value).slice(0, 200)}`);
  return r.ok ? [] : r.violations;
}

const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]);

test('camelCase and snake_case names, enums by name or number, int32 as string', (t: TestContext) => {
  const camel = read({
    requests: [
      {
        image: { content: PNG_HEADER.toString('base64') },
        features: [{ type: 'TEXT_DETECTION', maxResults: '10', model: 'builtin/latest' }],
        imageContext: {
          languageHints: ['en'],
          textDetectionParams: { enableTextDetectionConfidenceScore: true, advancedOcrOptions: ['legacy_layout'] },
        },
      },
    ],
    parent: 'projects/p/locations/eu',
    labels: { team: 'x' },
  });
  const snake = read({
    requests: [
      {
        image: { content: PNG_HEADER.toString('base64') },
        features: [{ type: 5, max_results: 10, model: 'builtin/latest' }],
        image_context: {
          language_hints: ['en'],
          text_detection_params: { enable_text_detection_confidence_score: true, advanced_ocr_options: ['legacy_layout'] },
        },
      },
    ],
    parent: 'projects/p/locations/eu',
    labels: { team: 'x' },
  });
  t.assert.ok(camel.ok && snake.ok);
  t.assert.deepEqual(camel, snake);
  if (!camel.ok) return;
  const entry = camel.value.requests[0];
  t.assert.equal(entry.features?.[0].type, 'TEXT_DETECTION');
  t.assert.equal(entry.features?.[0].maxResults, 10);
  t.assert.deepEqual(Buffer.from(entry.image!.content!), PNG_HEADER);
});

test('bytes: standard or URL-safe base64, padded or not, whitespace skipped', (t: TestContext) => {
  const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x00, 0x3e, 0x3f, 0x01]);
  const standard = bytes.toString('base64');
  const urlSafe = bytes.toString('base64url');
  t.assert.ok(standard.includes('+') || standard.includes('/'));
  for (const content of [
    standard,
    standard.replace(/=+$/, ''),
    urlSafe,
    urlSafe.padEnd(Math.ceil(urlSafe.length / 4) * 4, '='),
    `${standard.slice(0, 4)}\n${standard.slice(4)}`,
  ]) {
    const r = read({ requests: [{ image: { content }, features: [{ type: 'TEXT_DETECTION' }] }] });
    t.assert.ok(r.ok, content);
    if (r.ok) t.assert.deepEqual(Buffer.from(r.value.requests[0].image!.content!), bytes, content);
  }
});

test("bad base64 → Google's message at requests[0].image.content", (t: TestContext) => {
  for (const content of ['data:image/jpg;base64,', 'abc%', 'A', 'AAAAA===', 12]) {
    const [v] = violations(t, { requests: [{ image: { content }, features: [{ type: 'TEXT_DETECTION' }] }] });
    t.assert.equal(v.field, 'requests[0].image.content');
    if (typeof content === 'string') {
      t.assert.match(v.description, /^Invalid value at 'requests\[0\]\.image\.content' \(TYPE_BYTES\), Base64 decoding failed for "/);
    }
  }
});

test("unknown fields are refused with Google's message and the parent path", (t: TestContext) => {
  const [v] = violations(t, { requests: [{ images: {}, features: [] }] });
  t.assert.deepEqual(v, {
    field: 'requests[0]',
    description: 'Invalid JSON payload received. Unknown name "images" at \'requests[0]\': Cannot find field.',
  });
  const [root] = violations(t, { requests: [{}], foo: 1 });
  t.assert.equal(root.field, 'foo');
  t.assert.match(root.description, /Unknown name "foo": Cannot find field\./);
  const [deep] = violations(t, { requests: [{ imageContext: { textDetectionParams: { confidence: true } } }] });
  t.assert.equal(deep.field, 'requests[0].imageContext.textDetectionParams');
  // A name given in both spellings is a duplicate, not a silent overwrite.
  const [dup] = violations(t, { requests: [{ imageContext: { languageHints: ['en'], language_hints: ['zh'] } }] });
  t.assert.match(dup.description, /Duplicate field/);
});

test('bad enums by name or number', (t: TestContext) => {
  for (const type of ['FOO', 8, 5.5, true, 'text_detection']) {
    const [v] = violations(t, { requests: [{ features: [{ type }] }] });
    t.assert.equal(v.field, 'requests[0].features[0].type');
    t.assert.match(
      v.description,
      /^Invalid value at 'requests\[0\]\.features\[0\]\.type' \(type\.googleapis\.com\/google\.cloud\.vision\.v1\.Feature\.Type\), /,
    );
  }
});

test('wrong types, nulls, empty and oversized batches', (t: TestContext) => {
  t.assert.equal(violations(t, {})[0].field, 'requests');
  t.assert.equal(violations(t, { requests: [] })[0].field, 'requests');
  t.assert.equal(violations(t, { requests: {} })[0].field, 'requests');
  t.assert.equal(violations(t, { requests: [null] })[0].field, 'requests[0]');
  t.assert.equal(violations(t, { requests: ['x'] })[0].field, 'requests[0]');
  t.assert.equal(violations(t, { requests: [{ features: [{ maxResults: 'ten' }] }] })[0].field, 'requests[0].features[0].maxResults');
  t.assert.equal(violations(t, { requests: [{ features: [{ maxResults: 2 ** 31 }] }] })[0].field, 'requests[0].features[0].maxResults');
  t.assert.equal(
    violations(t, { requests: [{ imageContext: { languageHints: 'en' } }] })[0].field,
    'requests[0].imageContext.languageHints',
  );
  t.assert.equal(
    violations(t, { requests: [{ imageContext: { textDetectionParams: { enableTextDetectionConfidenceScore: 'yes' } } }] })[0].field,
    'requests[0].imageContext.textDetectionParams.enableTextDetectionConfidenceScore',
  );
  t.assert.equal(violations(t, { requests: [{}], labels: { a: 1 } })[0].field, 'labels.a');
  const seventeen = violations(t, { requests: Array.from({ length: 17 }, () => ({})) });
  t.assert.equal(seventeen[0].field, 'requests');
  t.assert.match(seventeen[0].description, /at most 16/);
  // null means "default" for singular fields.
  const nulls = read({ requests: [{ image: null, features: null, imageContext: { languageHints: null } }], parent: null });
  t.assert.deepEqual(nulls, { ok: true, value: { requests: [{ imageContext: {} }] } });
});

test('hostile input never throws and reports bounded violations', (t: TestContext) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      const r = read({ requests: [value] });
      if (!r.ok) t.assert.ok(r.violations.length >= 1 && r.violations.length <= 20);
    }),
    { numRuns: 500 },
  );
  const many = read({ requests: Array.from({ length: 16 }, () => ({ a: 1, b: 2, c: 3 })) });
  t.assert.ok(!many.ok && many.violations.length === 20);
  const deep = read({ requests: [{ image: { source: { imageUri: { a: { b: { c: {} } } } } } }] });
  t.assert.ok(!deep.ok && deep.violations[0].field === 'requests[0].image.source.imageUri');
});

test('language hints: BCP-47, matched on language or language-script', (t: TestContext) => {
  for (const ok of ['en', 'EN', 'en-US', 'zh', 'zh-Hant', 'zh-Hant-TW', 'zh-CN', 'en-t-i0-handwrit'])
    t.assert.ok(checkLanguageHint(ok).ok, ok);
  const unsupported = checkLanguageHint('xx');
  t.assert.ok(!unsupported.ok && /Unsupported language hint "xx"\. Supported languages: en, /.test(unsupported.message));
  // Other languages written in Latin script are read as unhinted Latin text; other scripts we cannot read are refused.
  for (const latin of ['nl', 'pl-PL', 'sv', 'sr-Latn', 'tr']) t.assert.ok(checkLanguageHint(latin).ok, latin);
  for (const other of ['th', 'el', 'sr', 'tlh', 'qaa']) t.assert.equal(checkLanguageHint(other).ok, false, other);
  for (const bad of ['', 'e', 'english!', 'en_US', 'en--US', '<script>']) t.assert.equal(checkLanguageHint(bad).ok, false, bad);
});

test('features: DOCUMENT wins; others are listed as unsupported', (t: TestContext) => {
  t.assert.deepEqual(planFeatures([{ type: 'TEXT_DETECTION' }, { type: 'DOCUMENT_TEXT_DETECTION' }]), {
    mode: 'document',
    unsupported: [],
  });
  t.assert.deepEqual(planFeatures([{ type: 'TEXT_DETECTION' }]), { mode: 'text', unsupported: [] });
  t.assert.deepEqual(planFeatures([{ type: 'LABEL_DETECTION' }, { type: 'LABEL_DETECTION' }, {}]), {
    mode: undefined,
    unsupported: ['LABEL_DETECTION', 'TYPE_UNSPECIFIED'],
  });
});
