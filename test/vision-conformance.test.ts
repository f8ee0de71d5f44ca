import { sharedMissing, sharedPath } from './helpers/shared-dir.ts';
import { test, type TestContext } from 'node:test';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import vision from '@google-cloud/vision';
import { OAuth2Client } from 'google-auth-library';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { protoRoundTrip } from './helpers/vision-proto.ts';

/**
 * Conformance with Google's own Node client (`@google-cloud/vision`, REST transport) and Google's
 * sample images, against a *listening* Legible with the real engine: the "Done when".
 * Skipped only when the sample images are absent; a missing engine is a failure.
 */

const SAMPLES = sharedPath('data/vision-samples');
const skip = sharedMissing('data/vision-samples/text.jpg');
const sample = (name: string) => path.join(SAMPLES, name);

interface Served {
  app: FastifyInstance;
  port: number;
  key: string;
  /** A static server for the samples (imageUri fetching, allow-listed as 127.0.0.1). */
  samplesBase: string;
}

async function serveLegible(t: TestContext, env: Record<string, string> = {}): Promise<Served> {
  const samples = http.createServer((req, res) => {
    const file = sample(path.basename(req.url ?? ''));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => samples.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => samples.close(() => resolve())));

  const { app, database } = await buildTestApp(t, 'sqlite', { IMAGE_URI_FETCH: 'true', IMAGE_URI_ALLOWED_ADDRESSES: '127.0.0.1', ...env });
  t.assert.ok('ocr' in app, 'buildApp must decorate app.ocr (the OCR engine)');
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'conformance', { apis: ['ocr'], key: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    port: (app.server.address() as AddressInfo).port,
    key: keyString!,
    samplesBase: `http://127.0.0.1:${(samples.address() as AddressInfo).port}`,
  };
}

/** GOOGLE-VISION.md §5.4 (a): host only, port and protocol separately, REST transport. */
function googleClient(s: Served, apiKey = s.key) {
  return new vision.ImageAnnotatorClient({ fallback: 'rest', apiEndpoint: '127.0.0.1', port: s.port, protocol: 'http', apiKey });
}

/** GOOGLE-VISION.md §5.4 (b): the seed path `/api/vision/v1/images:annotate` through an interceptor. */
function prefixedGoogleClient(s: Served, sent: string[]) {
  const auth = new OAuth2Client({ apiKey: s.key });
  auth.transporter.interceptors.request.add({
    resolved: async (cfg) => {
      const u = new URL(String(cfg.url));
      u.pathname = `/api/vision${u.pathname}`;
      cfg.url = u;
      sent.push(u.pathname);
      return cfg;
    },
  });
  return new vision.ImageAnnotatorClient({ fallback: 'rest', apiEndpoint: '127.0.0.1', port: s.port, protocol: 'http', authClient: auth });
}

type Word = { symbols?: Array<{ text?: string | null; property?: { detectedBreak?: unknown } | null }> | null; confidence?: number | null };
const wordsOf = (annotation: any): Word[] =>
  (annotation?.pages ?? []).flatMap((p: any) =>
    (p.blocks ?? []).flatMap((b: any) => (b.paragraphs ?? []).flatMap((pa: any) => pa.words ?? [])),
  );
const textOf = (w: Word) => (w.symbols ?? []).map((s) => s.text ?? '').join('');

test("Google's Node client against a listening Legible", { skip }, async (t: TestContext) => {
  const s = await serveLegible(t);
  const client = googleClient(s);
  t.after(() => client.close());

  await t.test('textDetection(text.jpg): "System Software Update" and "37%"', async (t: TestContext) => {
    const [result] = await client.textDetection(sample('text.jpg'));
    t.assert.equal(result.error ?? null, null);
    const all = result.textAnnotations?.[0]?.description ?? '';
    t.assert.match(all, /System Software Update/);
    t.assert.match(all, /37%/);
    t.assert.equal(result.textAnnotations?.[0]?.locale, 'en');
    t.assert.ok((result.textAnnotations?.length ?? 0) > 5, 'one entry per word after the full text');
    t.assert.equal(result.fullTextAnnotation?.text, all);
  });

  await t.test('documentTextDetection(logos.png): "Google Cloud Platform", word "Cloud" with confidence ≥ 0.9', async (t: TestContext) => {
    const [result] = await client.documentTextDetection(sample('logos.png'));
    t.assert.match(result.fullTextAnnotation?.text ?? '', /Google Cloud Platform/);
    const cloud = wordsOf(result.fullTextAnnotation).find((w) => textOf(w) === 'Cloud');
    t.assert.ok(cloud, `a word "Cloud" among ${wordsOf(result.fullTextAnnotation).map(textOf).join('|')}`);
    t.assert.ok((cloud?.confidence ?? 0) >= 0.9, `confidence ${cloud?.confidence}`);
  });

  await t.test('documentTextDetection(text.jpg): page 1398 × 1048, symbols, breaks, word "class"', async (t: TestContext) => {
    const [result] = await client.documentTextDetection(sample('text.jpg'));
    const page = result.fullTextAnnotation?.pages?.[0];
    t.assert.equal(page?.width, 1398);
    t.assert.equal(page?.height, 1048);
    const words = wordsOf(result.fullTextAnnotation);
    t.assert.ok(
      words.some((w) => textOf(w) === 'class'),
      `a word "class" among ${words.map(textOf).join('|')}`,
    );
    t.assert.ok(words.every((w) => (w.symbols?.length ?? 0) > 0 && typeof w.confidence === 'number'));
    const breaks = words
      .flatMap((w) => w.symbols ?? [])
      .map((sym) => (sym.property?.detectedBreak as any)?.type)
      .filter(Boolean);
    t.assert.ok(breaks.includes('SPACE') || breaks.includes('EOL_SURE_SPACE'), `breaks: ${[...new Set(breaks)]}`);
    t.assert.ok(breaks.includes('LINE_BREAK'));
    t.assert.equal((page?.blocks?.[0] as any)?.blockType, 'TEXT');
  });

  await t.test('textDetection(no-text.jpg): no annotations and no error', async (t: TestContext) => {
    const [result] = await client.textDetection(sample('no-text.jpg'));
    t.assert.deepEqual(result.textAnnotations, []);
    t.assert.equal(result.fullTextAnnotation ?? null, null);
    t.assert.equal(result.error ?? null, null);
  });

  await t.test('batchAnnotateImages: a garbage entry fails alone (code 3), the other is read', async (t: TestContext) => {
    const [batch] = await client.batchAnnotateImages({
      requests: [
        { image: { content: Buffer.from('definitely not an image') }, features: [{ type: 'TEXT_DETECTION' }] },
        { image: { content: fs.readFileSync(sample('wakeupcat.jpg')) }, features: [{ type: 'TEXT_DETECTION' }] },
      ],
    });
    t.assert.equal(batch.responses?.length, 2);
    t.assert.deepEqual(
      { code: batch.responses?.[0].error?.code, message: batch.responses?.[0].error?.message },
      { code: 3, message: 'Bad image data.' },
    );
    t.assert.match(batch.responses?.[1].textAnnotations?.[0]?.description ?? '', /human/i);
  });

  await t.test('languageHints and the confidence flag', async (t: TestContext) => {
    const [result] = await client.annotateImage({
      image: { content: fs.readFileSync(sample('wakeupcat.jpg')) },
      features: [{ type: 'TEXT_DETECTION' }],
      imageContext: { languageHints: ['en'], textDetectionParams: { enableTextDetectionConfidenceScore: true } },
    });
    t.assert.match(result.textAnnotations?.[0]?.description ?? '', /human/i);
    t.assert.ok(wordsOf(result.fullTextAnnotation).every((w) => typeof w.confidence === 'number' && w.confidence > 0));
    const [refused] = await client.annotateImage({
      image: { content: fs.readFileSync(sample('wakeupcat.jpg')) },
      features: [{ type: 'TEXT_DETECTION' }],
      imageContext: { languageHints: ['tlh'] },
    });
    t.assert.equal(refused.error?.code, 3);
    // A Latin-script language Google reads and we have no model for is read, not refused.
    const [dutch] = await client.annotateImage({
      image: { content: fs.readFileSync(sample('wakeupcat.jpg')) },
      features: [{ type: 'TEXT_DETECTION' }],
      imageContext: { languageHints: ['nl'] },
    });
    t.assert.equal(dutch.error, null);
    t.assert.match(dutch.textAnnotations?.[0]?.description ?? '', /human/i);
  });

  await t.test('imageUri through the SSRF-safe fetcher (allow-listed loopback)', async (t: TestContext) => {
    const [result] = await client.textDetection(`${s.samplesBase}/wakeupcat.jpg`);
    t.assert.match(result.textAnnotations?.[0]?.description ?? '', /human/i);
  });

  await t.test("an invalid key surfaces as err.reason === 'API_KEY_INVALID'", async (t: TestContext) => {
    const bad = googleClient(s, 'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe');
    t.after(() => bad.close());
    await t.assert.rejects(bad.textDetection(sample('logos.png')), (err: any) => {
      t.assert.equal(err.reason, 'API_KEY_INVALID');
      t.assert.match(String(err.message), /API key not valid/);
      return true;
    });
  });

  await t.test('the seed path /api/vision/v1/images:annotate through a path-prefix interceptor', async (t: TestContext) => {
    const sent: string[] = [];
    const prefixed = prefixedGoogleClient(s, sent);
    t.after(() => prefixed.close());
    const [result] = await prefixed.textDetection(sample('text.jpg'));
    t.assert.deepEqual(sent, ['/api/vision/v1/images:annotate']);
    t.assert.match(result.textAnnotations?.[0]?.description ?? '', /System Software Update/);
  });

  await t.test("raw responses decode against Google's protos without loss", async (t: TestContext) => {
    const content = (name: string) => fs.readFileSync(sample(name)).toString('base64');
    const body = JSON.stringify({
      requests: [
        { image: { content: content('text.jpg') }, features: [{ type: 'TEXT_DETECTION' }] },
        { image: { content: content('logos.png') }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] },
        { image: { content: content('no-text.jpg') }, features: [{ type: 'TEXT_DETECTION' }] },
        { image: { content: 'AAAA' }, features: [{ type: 'TEXT_DETECTION' }] },
      ],
    });
    for (const [query, enums] of [
      ['', 'name'],
      ['?$alt=json%3Benum-encoding=int', 'int'],
    ] as const) {
      const res = await fetch(`http://127.0.0.1:${s.port}/v1/images:annotate${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': s.key },
        body,
      });
      t.assert.equal(res.status, 200);
      const json = await res.json();
      const { input, output } = protoRoundTrip('google.cloud.vision.v1.BatchAnnotateImagesResponse', json, enums);
      t.assert.deepEqual(output, input);
      t.assert.deepEqual(json.responses[2], {});
      const blockType = json.responses[1].fullTextAnnotation.pages[0].blocks[0].blockType;
      t.assert.equal(blockType, enums === 'int' ? 1 : 'TEXT');
    }
  });
});

/** A PNG chunk: length, type, data, CRC-32 of type + data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A valid, ~75 KB grey PNG of width × height: a "decompression bomb" when the product is large. */
function blankPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = zlib.deflateSync(Buffer.alloc((width + 1) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

test('limits with the engine: 75 megapixels per image; an overloaded engine → 503 + Retry-After', { skip }, async (t: TestContext) => {
  // No queue: with one worker busy, every other image of the batch is refused as overloaded.
  const s = await serveLegible(t, { OCR_WORKERS: '1', OCR_QUEUE_MAX: '0' });
  const post = (requests: unknown[]) =>
    s.app.inject({ method: 'POST', url: '/v1/images:annotate', headers: { 'x-goog-api-key': s.key }, payload: { requests } });

  const bomb = await post([{ image: { content: blankPng(10_000, 7_600).toString('base64') }, features: [{ type: 'TEXT_DETECTION' }] }]);
  t.assert.equal(bomb.statusCode, 200, bomb.body);
  t.assert.equal(bomb.json().responses[0].error.code, 3);
  t.assert.match(bomb.json().responses[0].error.message, /75|megapixel|too large/i);

  const image = { image: { content: fs.readFileSync(sample('text.jpg')).toString('base64') }, features: [{ type: 'TEXT_DETECTION' }] };
  const overloaded = await post(Array.from({ length: 4 }, () => image));
  t.assert.equal(overloaded.statusCode, 503, overloaded.body.slice(0, 300));
  t.assert.equal(overloaded.json().error.status, 'UNAVAILABLE');
  t.assert.ok(Number(overloaded.headers['retry-after']) >= 1);
});
