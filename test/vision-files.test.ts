import { test, type TestContext } from 'node:test';
import type { AddressInfo } from 'node:net';
import vision from '@google-cloud/vision';
import { buildTestApp } from './helpers/build-test-app.ts';
import { assertError, createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import {
  animatedGif,
  bombPdf,
  encryptedPdf,
  hugePagePdf,
  javascriptPdf,
  makePdf,
  manyPagesPdf,
  multiPageTiff,
} from './helpers/document-fixtures.ts';

/**
 * `files:annotate` (BatchAnnotateFiles) with the real engine and real document workers, through
 * `inject` and through Google's own Node client against a listening server; and the 501 answer
 * of the Vision methods Legible does not serve.
 */

async function served(t: TestContext) {
  const { app, database } = await buildTestApp(t, 'sqlite');
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'files-project', { apis: ['ocr'], key: { restrictions: { services: ['ocr'] } } });
  await setupProject(app, owner, 'other-project', { apis: ['ocr'] });
  return { app, database, key: keyString!, owner };
}

const words = (text: string | null | undefined) => (text ?? '').toLowerCase();
const fileRequest = (content: Uint8Array, mimeType: string, pages?: number[], type = 'DOCUMENT_TEXT_DETECTION') => ({
  requests: [
    { inputConfig: { content: Buffer.from(content).toString('base64'), mimeType }, features: [{ type }], ...(pages ? { pages } : {}) },
  ],
});

test('files:annotate', async (t: TestContext) => {
  const { app, key } = await served(t);
  const headers = { 'x-goog-api-key': key };
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers, payload: payload as object });

  const pdf = await makePdf([
    { kind: 'text', lines: ['Alpha invoice'] },
    { kind: 'scan', lines: ['Bravo receipt'], jpeg: true, size: [842, 595] },
    { kind: 'text', lines: ['Charlie letter'], rotate: 90, size: [595, 842] },
  ]);

  await t.test(
    'a 3-page PDF, pages [1, -1]: two responses, pageNumber 1 and 3, totalPages 3, points, normalizedVertices',
    async (t: TestContext) => {
      const res = await post('/v1/files:annotate', fileRequest(pdf, 'application/pdf', [1, -1]));
      t.assert.equal(res.statusCode, 200, res.body);
      const file = res.json().responses[0];
      t.assert.equal(file.totalPages, 3);
      t.assert.deepEqual(file.inputConfig, { mimeType: 'application/pdf' });
      t.assert.deepEqual(
        file.responses.map((r: any) => r.context),
        [{ pageNumber: 1 }, { pageNumber: 3 }],
      );
      t.assert.match(words(file.responses[0].fullTextAnnotation?.text), /alpha/);
      t.assert.match(words(file.responses[1].fullTextAnnotation?.text), /charlie/);
      const page = file.responses[0].fullTextAnnotation.pages[0];
      t.assert.deepEqual([page.width, page.height], [612, 792]);
      // A page turned by /Rotate 90 is reported as displayed.
      t.assert.deepEqual(
        [file.responses[1].fullTextAnnotation.pages[0].width, file.responses[1].fullTextAnnotation.pages[0].height],
        [842, 595],
      );
      const box = page.blocks[0].boundingBox;
      t.assert.equal(box.vertices, undefined);
      t.assert.ok(box.normalizedVertices.every((v: any) => (v.x ?? 0) >= 0 && (v.x ?? 0) <= 1 && (v.y ?? 0) >= 0 && (v.y ?? 0) <= 1));
    },
  );

  await t.test(
    'no pages = the first 5 (here all 3), a scanned page is read too; project bindings answer the same',
    async (t: TestContext) => {
      const res = await post('/v1/projects/files-project/locations/eu/files:annotate', fileRequest(pdf, 'application/pdf'));
      const file = res.json().responses[0];
      t.assert.deepEqual(
        file.responses.map((r: any) => r.context.pageNumber),
        [1, 2, 3],
      );
      t.assert.match(words(file.responses[1].fullTextAnnotation?.text), /bravo/);
      t.assert.equal(
        (await post('/api/vision/v1/projects/files-project/files:annotate', fileRequest(pdf, 'application/pdf', [2]))).statusCode,
        200,
      );
    },
  );

  await t.test('a 4-page TIFF and an animated GIF', async (t: TestContext) => {
    const tiff = await multiPageTiff([['Delta one'], ['Echo two'], ['Foxtrot three'], ['Golf four']]);
    const file = (await post('/v1/files:annotate', fileRequest(tiff, 'image/tiff', [2, 4], 'TEXT_DETECTION'))).json().responses[0];
    t.assert.equal(file.totalPages, 4);
    t.assert.deepEqual(
      file.responses.map((r: any) => r.context.pageNumber),
      [2, 4],
    );
    t.assert.match(words(file.responses[0].textAnnotations?.[0]?.description), /echo/);
    t.assert.match(words(file.responses[1].textAnnotations?.[0]?.description), /golf/);
    t.assert.deepEqual(
      [file.responses[0].fullTextAnnotation.pages[0].width, file.responses[0].fullTextAnnotation.pages[0].height],
      [900, 300],
    );

    const gif = await animatedGif([['Hotel frame'], ['India frame']]);
    const frames = (await post('/v1/files:annotate', fileRequest(gif, 'image/gif', [-1]))).json().responses[0];
    t.assert.equal(frames.totalPages, 2);
    t.assert.equal(frames.responses[0].context.pageNumber, 2);
    t.assert.match(words(frames.responses[0].fullTextAnnotation?.text), /india/);
  });

  await t.test('hostile and broken files fail alone, with a clear per-file error', async (t: TestContext) => {
    const cases: Array<[string, Uint8Array, string, RegExp]> = [
      ['200 000 pt page', hugePagePdf(), 'application/pdf', /200000 × 200000 pt/],
      ['10 000 pages', manyPagesPdf(10_000), 'application/pdf', /10000 pages; at most 2000/],
      ['decompression bomb', await bombPdf(200), 'application/pdf', /inflates beyond/],
      ['encrypted', encryptedPdf(), 'application/pdf', /password/],
      ['truncated', pdf.subarray(0, 400), 'application/pdf', /Bad PDF data/],
      ['not a PDF', Buffer.from('hello'), 'application/pdf', /Bad PDF data/],
      ['a GIF sent as TIFF', await animatedGif([['x'], ['y']]), 'image/tiff', /Bad TIFF data/],
      ['wrong mime type', pdf, 'image/png', /Unsupported inputConfig.mimeType/],
    ];
    for (const [name, bytes, mime, message] of cases) {
      const res = await post('/v1/files:annotate', fileRequest(bytes, mime));
      t.assert.equal(res.statusCode, 200, name);
      const file = res.json().responses[0];
      t.assert.equal(file.error?.code, 3, `${name}: ${JSON.stringify(file.error)}`);
      t.assert.match(file.error.message, message, name);
      t.assert.equal(file.responses, undefined, name);
    }
    const page9 = (await post('/v1/files:annotate', fileRequest(pdf, 'application/pdf', [9]))).json().responses[0];
    t.assert.match(page9.error.message, /Invalid page number 9: the file has 3 pages/);
    const scripted = (await post('/v1/files:annotate', fileRequest(javascriptPdf('Juliet script'), 'application/pdf'))).json().responses[0];
    t.assert.match(words(scripted.responses[0].fullTextAnnotation?.text), /juliet/, 'a PDF with JavaScript is read; the script is not run');
  });

  await t.test('request shape errors are 400: 6 pages, 2 files, unknown field; another project is 404', async (t: TestContext) => {
    assertError(t, await post('/v1/files:annotate', fileRequest(pdf, 'application/pdf', [1, 2, 3, 4, 5, 6])), 400);
    const two = fileRequest(pdf, 'application/pdf');
    assertError(t, await post('/v1/files:annotate', { requests: [...two.requests, ...two.requests] }), 400);
    assertError(t, await post('/v1/files:annotate', { requests: [{ ...two.requests[0], bogus: 1 }] }), 400);
    assertError(t, await post('/v1/projects/other-project/files:annotate', two), 404);
    assertError(t, await post('/v1/files:annotate', { ...two, parent: 'projects/other-project/locations/eu' }), 404);
    assertError(
      t,
      await post('/v1/projects/other-project/images:annotate', {
        requests: [{ image: { content: 'aGk=' }, features: [{ type: 'TEXT_DETECTION' }] }],
      }),
      404,
    );
    assertError(t, await app.inject({ method: 'POST', url: '/v1/files:annotate', payload: two }), 401);
  });

  await t.test('unserved Vision methods answer 501 naming the method, even to an ocr-restricted key', async (t: TestContext) => {
    const list = await app.inject({ url: '/v1/projects/files-project/locations/us/products', headers });
    assertError(t, list, 501);
    t.assert.match(list.json().error.message, /google\.cloud\.vision\.v1\.ProductSearch\.ListProducts/);
    const create = await post('/v1/projects/files-project/locations/us/productSets', {});
    t.assert.match(create.json().error.message, /ProductSearch\.CreateProductSet/);
    assertError(t, await app.inject({ url: '/v1/no-such-thing', headers }), 404);
  });
});

test("Google's client: batchAnnotateFiles on a listening server", async (t: TestContext) => {
  const { app, key } = await served(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new vision.ImageAnnotatorClient({
    fallback: 'rest',
    apiEndpoint: '127.0.0.1',
    port: (app.server.address() as AddressInfo).port,
    protocol: 'http',
    apiKey: key,
  });
  t.after(() => client.close());
  const pdf = await makePdf([
    { kind: 'text', lines: ['Kilo first'] },
    { kind: 'scan', lines: ['Lima second'] },
    { kind: 'text', lines: ['Mike third'] },
  ]);
  const [result] = await client.batchAnnotateFiles({
    requests: [
      { inputConfig: { content: pdf, mimeType: 'application/pdf' }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }], pages: [1, 3] },
    ],
  });
  const file = result.responses?.[0];
  t.assert.equal(file?.totalPages, 3);
  t.assert.deepEqual(
    file?.responses?.map((r) => r.context?.pageNumber),
    [1, 3],
  );
  t.assert.match(words(file?.responses?.[0].fullTextAnnotation?.text), /kilo/);
  t.assert.match(words(file?.responses?.[1].fullTextAnnotation?.text), /mike/);
  t.assert.ok((file?.responses?.[0].fullTextAnnotation?.pages?.[0].blocks?.[0].boundingBox?.normalizedVertices?.length ?? 0) === 4);

  const tiff = await multiPageTiff([['November'], ['Oscar'], ['Papa'], ['Quebec']]);
  const [t4] = await client.batchAnnotateFiles({
    requests: [{ inputConfig: { content: tiff, mimeType: 'image/tiff' }, features: [{ type: 'TEXT_DETECTION' }] }],
  });
  t.assert.equal(t4.responses?.[0].totalPages, 4);
  t.assert.equal(t4.responses?.[0].responses?.length, 4);
  t.assert.match(words(t4.responses?.[0].responses?.[3].fullTextAnnotation?.text), /quebec/);
});
