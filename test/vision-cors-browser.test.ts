import { test, type TestContext } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { findChromium, launchChromium, skipWithoutChromium } from './helpers/find-chromium.ts';

/**
 * Issue 16, item 12: the Vision routes speak CORS as Google's endpoint does, so a web page on another
 * origin can call `images:annotate` with a referrer-restricted key, in a real headless Chromium; the
 * restriction is enforced on what the browser sends (Referer, else Origin). Setup routes get no CORS.
 */
const CHROMIUM = findChromium();

/** The other origin: a page that calls the API and reports each answer's status and body. */
async function pageServer(t: TestContext): Promise<string> {
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'),
  );
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

test('a page on another origin calls images:annotate with a referrer-restricted key', {
  skip: skipWithoutChromium(CHROMIUM),
}, async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'sqlite', { OCR_WARM: 'false' });
  const pageOrigin = await pageServer(t);
  const owner = await createTestAccount(database, 'acme');
  const allowed = await setupProject(app, owner, 'browser-app', {
    apis: ['ocr'],
    key: { restrictions: { allowedReferrers: [`${new URL(pageOrigin).host}/*`] } },
  });
  const other = await setupProject(app, owner, 'other-app', {
    apis: ['ocr'],
    key: { restrictions: { allowedReferrers: ['app.example.com/*'] } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // `localhost` vs 127.0.0.1: another origin (and another site) than the page.
  const api = `http://localhost:${(app.server.address() as AddressInfo).port}`;

  const browser = await launchChromium(t, CHROMIUM);
  const page = await browser.newPage();
  await page.goto(pageOrigin);
  const call = (url: string, init: { method: string; headers?: Record<string, string>; body?: string }) =>
    page.evaluate(
      async ({ url, init }) => {
        try {
          const res = await fetch(url, init);
          return { status: res.status, body: await res.text() };
        } catch (err) {
          return { status: 0, body: String(err) };
        }
      },
      { url, init },
    );
  const body = JSON.stringify({ requests: [{ image: { content: 'AAAA' }, features: [{ type: 'LABEL_DETECTION' }] }] });

  // JSON + an API key header: a preflighted request, as Google's JS samples send it.
  const ok = await call(`${api}/v1/images:annotate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': allowed.keyString! },
    body,
  });
  t.assert.equal(ok.status, 200, ok.body);
  t.assert.ok(ok.body.includes('responses'));
  const viaQuery = await call(`${api}/v1/images:annotate?key=${allowed.keyString}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  t.assert.equal(viaQuery.status, 200, viaQuery.body);
  // Another site's key: refused, and the page can read why.
  const blocked = await call(`${api}/v1/images:annotate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': other.keyString! },
    body,
  });
  t.assert.equal(blocked.status, 403, blocked.body);
  t.assert.ok(blocked.body.includes('API_KEY_HTTP_REFERRER_BLOCKED'));
  // Setup routes are not for browsers on other origins: the browser blocks the call.
  const setup = await call(`${api}/api/accounts/acme/projects`, { method: 'GET', headers: { authorization: `Bearer ${owner.token}` } });
  t.assert.equal(setup.status, 0, setup.body);
});

test('preflight and CORS headers: Vision routes only', async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'sqlite', { OCR_WARM: 'false' });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'cors-project', {
    apis: ['ocr'],
    key: { restrictions: { allowedReferrers: ['app.example.com/*'] } },
  });
  const origin = 'https://app.example.com';
  for (const url of ['/v1/images:annotate', '/api/vision/v1/images:annotate']) {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-goog-api-key' },
    });
    t.assert.equal(preflight.statusCode, 200, preflight.body);
    t.assert.equal(preflight.headers['access-control-allow-origin'], origin);
    t.assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
    t.assert.match(String(preflight.headers['access-control-allow-headers']), /x-goog-api-key/i);
  }
  // Browsers send no Referer under `no-referrer`: the Origin header is checked instead.
  const body = { requests: [{ image: { content: 'AAAA' }, features: [{ type: 'LABEL_DETECTION' }] }] };
  const byOrigin = await app.inject({
    method: 'POST',
    url: '/v1/images:annotate',
    headers: { origin, 'x-goog-api-key': keyString! },
    payload: body,
  });
  t.assert.equal(byOrigin.statusCode, 200, byOrigin.body);
  t.assert.equal(byOrigin.headers['access-control-allow-origin'], origin);
  const wrongOrigin = await app.inject({
    method: 'POST',
    url: '/v1/images:annotate',
    headers: { origin: 'https://evil.example', 'x-goog-api-key': keyString! },
    payload: body,
  });
  t.assert.equal(wrongOrigin.statusCode, 403);
  // Setup routes: no preflight answer, no CORS header.
  const setupPreflight = await app.inject({
    method: 'OPTIONS',
    url: '/api/accounts/acme/projects',
    headers: { origin, 'access-control-request-method': 'GET' },
  });
  t.assert.equal(setupPreflight.headers['access-control-allow-origin'], undefined);
  const setup = await app.inject({ method: 'GET', url: '/api/accounts/acme/projects', headers: { origin, ...owner.headers } });
  t.assert.equal(setup.headers['access-control-allow-origin'], undefined);
});
