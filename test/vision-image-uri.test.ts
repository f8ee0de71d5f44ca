import { test, type TestContext } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchImageUri, type UriFetchPolicy } from '../src/vision/image-uri-fetch.ts';
import { resolveImageBytes } from '../src/vision/image-source.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';

/**
 * `image.source.imageUri` fetching against a real local HTTP server: loopback is refused unless the
 * operator's allow-list names it, every redirect hop is re-checked, size and time are bounded.
 */

const PAYLOAD = Buffer.from('\x89PNG\r\n\x1a\n fake image bytes');
const MB = 1024 * 1024;

async function startServer(t: TestContext): Promise<string> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/image.png':
        res.writeHead(200, { 'content-type': 'image/png' }).end(PAYLOAD);
        return;
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/image.png' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      case '/huge-declared':
        res.writeHead(200, { 'content-length': String(21 * MB) });
        res.write(Buffer.alloc(1024));
        return; // never finishes: the declared length alone is refused
      case '/huge-streamed': {
        res.writeHead(200, { 'content-type': 'image/png' }); // chunked, no length
        const chunk = Buffer.alloc(MB);
        let sent = 0;
        const pump = () => {
          while (sent < 21 && res.write(chunk)) sent += 1;
          if (sent < 21)
            res.once('drain', () => {
              sent += 1;
              pump();
            });
          else res.end();
        };
        pump();
        return;
      }
      case '/hang':
        return; // never answers
      default:
        res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const policy = (allowedAddresses: string[] = [], timeoutMs = 5000): UriFetchPolicy => ({
  allowedAddresses,
  timeoutMs,
  maxBytes: 20 * MB,
  maxRedirects: 3,
});

test('a local server is refused as loopback unless allow-listed', async (t: TestContext) => {
  const base = await startServer(t);
  const refused = await fetchImageUri(`${base}/image.png`, policy());
  t.assert.deepEqual(refused.ok ? 'fetched' : refused.code, 7);
  const allowed = await fetchImageUri(`${base}/image.png`, policy(['127.0.0.1']));
  t.assert.ok(allowed.ok);
  if (allowed.ok) t.assert.deepEqual(Buffer.from(allowed.bytes), PAYLOAD);
  const cidr = await fetchImageUri(`${base}/image.png`, policy(['127.0.0.0/8']));
  t.assert.ok(cidr.ok);
});

test('hostile URIs: schemes, metadata and loopback addresses in every spelling', async (t: TestContext) => {
  const base = await startServer(t);
  const port = new URL(base).port;
  const cases: Array<[string, number]> = [
    ['file:///etc/passwd', 3],
    ['gs://bucket/object', 3],
    ['data:image/png;base64,AAAA', 3],
    ['ftp://example.com/a.png', 3],
    ['javascript:alert(1)', 3],
    ['not a url', 3],
    ['http://169.254.169.254/latest/meta-data/', 7],
    [`http://[::1]:${port}/image.png`, 7],
    [`http://[::ffff:127.0.0.1]:${port}/image.png`, 7],
    [`http://2130706433:${port}/image.png`, 7], // decimal 127.0.0.1
    [`http://0x7f.1:${port}/image.png`, 7],
    [`http://0177.0.0.1:${port}/image.png`, 7],
    [`http://localhost:${port}/image.png`, 7], // a name resolving to loopback: checked in the lookup
    [`http://0.0.0.0:${port}/image.png`, 7],
    ['http://10.0.0.1/a.png', 7],
    ['http://192.168.1.1/a.png', 7],
    ['http://[fe80::1]/a.png', 7],
  ];
  for (const [uri, code] of cases) {
    const outcome = await fetchImageUri(uri, policy());
    t.assert.equal(outcome.ok ? 'fetched' : outcome.code, code, uri);
  }
});

test('redirects are re-checked at every hop and bounded', async (t: TestContext) => {
  const base = await startServer(t);
  const allow = policy(['127.0.0.1']);
  t.assert.ok((await fetchImageUri(`${base}/redirect`, allow)).ok);
  const toMetadata = await fetchImageUri(`${base}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`, allow);
  t.assert.equal(toMetadata.ok ? 'fetched' : toMetadata.code, 7);
  const toFile = await fetchImageUri(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, allow);
  t.assert.equal(toFile.ok ? 'fetched' : toFile.code, 3);
  const loop = await fetchImageUri(`${base}/loop`, allow);
  t.assert.equal(loop.ok ? 'fetched' : loop.code, 14);
});

test('size cap (declared or streamed), deadline, HTTP errors', async (t: TestContext) => {
  const base = await startServer(t);
  const allow = policy(['127.0.0.1']);
  for (const path of ['/huge-declared', '/huge-streamed']) {
    const outcome = await fetchImageUri(`${base}${path}`, allow);
    t.assert.equal(outcome.ok ? 'fetched' : outcome.code, 3, path);
    if (!outcome.ok) t.assert.match(outcome.message, /20 MB limit/);
  }
  const hang = await fetchImageUri(`${base}/hang`, policy(['127.0.0.1'], 300));
  t.assert.equal(hang.ok ? 'fetched' : hang.code, 4);
  const missing = await fetchImageUri(`${base}/nope`, allow);
  t.assert.deepEqual(missing, {
    ok: false,
    code: 14,
    message: 'We can not access the URL currently. Please download the content and pass it in.',
  });
});

test('image source policy: content wins, fetching off by default, gs:// never', async (t: TestContext) => {
  const base = await startServer(t);
  const off = { ...policy(['127.0.0.1']), fetchEnabled: false };
  const on = { ...policy(['127.0.0.1']), fetchEnabled: true };
  const content = new Uint8Array([1, 2, 3]);
  t.assert.deepEqual(await resolveImageBytes({ content, source: { imageUri: `${base}/image.png` } }, on), { ok: true, bytes: content });
  const disabled = await resolveImageBytes({ source: { imageUri: `${base}/image.png` } }, off);
  t.assert.equal(disabled.ok ? 'fetched' : disabled.code, 7);
  const fetched = await resolveImageBytes({ source: { imageUri: `${base}/image.png`, gcsImageUri: 'gs://b/o' } }, on);
  t.assert.ok(fetched.ok);
  const gcs = await resolveImageBytes({ source: { gcsImageUri: 'gs://b/o' } }, on);
  t.assert.equal(gcs.ok ? 'fetched' : gcs.code, 3);
  const none = await resolveImageBytes({}, on);
  t.assert.equal(none.ok ? 'fetched' : none.code, 3);
  const big = await resolveImageBytes({ content: new Uint8Array(20 * MB + 1) }, on);
  t.assert.equal(big.ok ? 'fetched' : big.code, 3);
});

test('through the route: IMAGE_URI_FETCH on, loopback still refused without an allow-list', async (t: TestContext) => {
  const base = await startServer(t);
  const { app, database } = await buildTestApp(t, 'sqlite', { IMAGE_URI_FETCH: 'true' });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'uri-project', { apis: ['ocr'], key: {} });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/images:annotate',
    headers: { 'x-goog-api-key': keyString! },
    payload: { requests: [{ image: { source: { imageUri: `${base}/image.png` } }, features: [{ type: 'TEXT_DETECTION' }] }] },
  });
  t.assert.equal(res.statusCode, 200, res.body);
  t.assert.equal(res.json().responses[0].error.code, 7);
  t.assert.match(res.json().responses[0].error.message, /private, loopback or reserved/);
});

test('through the route: IMAGE_URI_FETCH_MAX_REDIRECTS and IMAGE_URI_FETCH_TIMEOUT_MS bound each download', async (t: TestContext) => {
  const base = await startServer(t);
  const { app, database } = await buildTestApp(t, 'sqlite', {
    IMAGE_URI_FETCH: 'true',
    IMAGE_URI_ALLOWED_ADDRESSES: '127.0.0.1',
    IMAGE_URI_FETCH_MAX_REDIRECTS: '0',
    IMAGE_URI_FETCH_TIMEOUT_MS: '300',
  });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'uri-limits', { apis: ['ocr'], key: {} });
  const annotate = (path: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/images:annotate',
      headers: { 'x-goog-api-key': keyString! },
      payload: { requests: [{ image: { source: { imageUri: `${base}${path}` } }, features: [{ type: 'TEXT_DETECTION' }] }] },
    });
  const redirected = (await annotate('/redirect')).json().responses[0].error;
  t.assert.equal(redirected.code, 14);
  t.assert.match(redirected.message, /more than 0 redirects/);
  const started = Date.now();
  t.assert.equal((await annotate('/hang')).json().responses[0].error.code, 4);
  t.assert.ok(Date.now() - started < 4000, 'the configured timeout, not the 5 s default');
});
