import { test, type TestContext } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixture } from './fixtures/images/fixtures.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';

/**
 * Overload (issue 16, item 8 and 11): a request is admitted whole or refused whole, at once, before
 * any of its images is fetched or decoded; `imageUri` fetches hold their engine places while they run.
 */

/** An image server that counts fetches and holds every answer until `release()`. */
async function heldImageServer(t: TestContext) {
  let fetches = 0;
  const held: Array<() => void> = [];
  const server = http.createServer((_req, res) => {
    fetches += 1;
    held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(fixture('line.png'))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: (name: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}.png`,
    get fetches() {
      return fetches;
    },
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
  };
}

test('an overloaded engine refuses a request whole and at once, before fetching any of its images', async (t: TestContext) => {
  // One worker and one queue place: two images fit at a time.
  const { app, database } = await buildTestApp(t, 'sqlite', {
    OCR_QUEUE_MAX: '1',
    OCR_WARM: 'false',
    IMAGE_URI_FETCH: 'true',
    IMAGE_URI_ALLOWED_ADDRESSES: '127.0.0.1',
  });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'busy-project', { apis: ['ocr'], key: {} });
  const images = await heldImageServer(t);
  const annotate = (uris: string[]) =>
    app.inject({
      method: 'POST',
      url: '/v1/images:annotate',
      headers: { 'x-goog-api-key': keyString },
      payload: { requests: uris.map((imageUri) => ({ image: { source: { imageUri } }, features: [{ type: 'TEXT_DETECTION' }] })) },
    });

  // Three images never fit: refused whole, none fetched.
  const tooBig = await annotate([images.url('a'), images.url('b'), images.url('c')]);
  t.assert.equal(tooBig.statusCode, 503);
  t.assert.ok(Number(tooBig.headers['retry-after']) >= 1);
  t.assert.equal(images.fetches, 0);

  // A request whose two fetches are still running holds both places ...
  const first = annotate([images.url('d'), images.url('e')]);
  while (images.fetches < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  // ... so the next one is refused at once, without waiting for them and without fetching.
  const refused = await annotate([images.url('f')]);
  t.assert.equal(refused.statusCode, 503, refused.body.slice(0, 300));
  t.assert.equal(refused.json().error.status, 'UNAVAILABLE');
  t.assert.equal(images.fetches, 2);

  images.release();
  const admitted = await first;
  t.assert.equal(admitted.statusCode, 200, admitted.body.slice(0, 300));
  t.assert.equal(admitted.json().responses.length, 2);
  // Places come back when a request is done.
  const next = annotate([images.url('g')]);
  while (images.fetches < 3) await new Promise((resolve) => setTimeout(resolve, 10));
  images.release();
  t.assert.equal((await next).statusCode, 200);
});

test('an overload refusal is logged once at warn, without a stack trace', async (t: TestContext) => {
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { createTestDatabase } = await import('./helpers/dialects.ts');
  const database = await createTestDatabase('sqlite');
  const lines: string[] = [];
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'info', OCR_WORKERS: '1', OCR_QUEUE_MAX: '0', OCR_WARM: 'false' }),
    database,
    logStream: { write: (line) => void lines.push(line) },
  });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'busy-project', { apis: ['ocr'], key: {} });
  const content = Buffer.from(fixture('line.png')).toString('base64');
  const res = await app.inject({
    method: 'POST',
    url: '/v1/images:annotate',
    headers: { 'x-goog-api-key': keyString! },
    payload: { requests: [1, 2].map(() => ({ image: { content }, features: [{ type: 'TEXT_DETECTION' }] })) },
  });
  t.assert.equal(res.statusCode, 503);
  const refusals = lines.map((l) => JSON.parse(l)).filter((l) => l.code === 'UNAVAILABLE');
  t.assert.equal(refusals.length, 1, lines.join(''));
  t.assert.equal(refusals[0].level, 40);
  t.assert.ok(!JSON.stringify(refusals[0]).includes('stack'), JSON.stringify(refusals[0]));
});

test('imageUri downloads share one byte budget: past it an image is refused (code 8), and the budget comes back', async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'sqlite', {
    OCR_WARM: 'false',
    IMAGE_URI_FETCH: 'true',
    IMAGE_URI_ALLOWED_ADDRESSES: '127.0.0.1',
    IMAGE_URI_FETCH_MAX_BYTES_IN_FLIGHT: String(1024 * 1024),
  });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'budget-project', { apis: ['ocr'], key: {} });
  // 700 KB each, chunked, the last 100 KB held until `release`: two at once exceed 1 MB.
  const held: Array<() => void> = [];
  let started = 0;
  const server = http.createServer((_req, res) => {
    started += 1;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(Buffer.alloc(600 * 1024, 1));
    held.push(() => res.end(Buffer.alloc(100 * 1024, 1)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const url = (name: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}.png`;
  const annotate = (names: string[]) =>
    app.inject({
      method: 'POST',
      url: '/v1/images:annotate',
      headers: { 'x-goog-api-key': keyString! },
      payload: { requests: names.map((n) => ({ image: { source: { imageUri: url(n) } }, features: [{ type: 'TEXT_DETECTION' }] })) },
    });
  const both = annotate(['a', 'b']);
  while (started < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the first 600 KB of each arrive
  for (const release of held.splice(0)) release();
  const res = await both;
  t.assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  const codes = res
    .json()
    .responses.map((r: { error?: { code: number } }) => r.error?.code ?? 0)
    .sort();
  t.assert.ok(codes.includes(8), `one image refused for the byte budget: ${JSON.stringify(res.json()).slice(0, 400)}`);
  // Given back: the next download alone fits.
  const again = annotate(['c']);
  while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  for (const release of held.splice(0)) release();
  const alone = await again;
  t.assert.notEqual(alone.json().responses[0].error?.code, 8, alone.body.slice(0, 300));
});
