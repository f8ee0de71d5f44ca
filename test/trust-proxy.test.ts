import { test, type TestContext } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';

/**
 * TRUST_PROXY (issue 16, item 4): behind a real reverse proxy that appends the peer address to
 * `X-Forwarded-For` as nginx's `$proxy_add_x_forwarded_for` does, a client-written entry is ignored.
 */

/** A small HTTP reverse proxy: forwards to `target`, appending its peer's address to X-Forwarded-For. */
async function reverseProxy(t: TestContext, target: string): Promise<string> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const peer = req.socket.remoteAddress!.replace(/^::ffff:/, '');
    const prior = req.headers['x-forwarded-for'];
    const headers = { ...req.headers, 'x-forwarded-for': prior ? `${prior}, ${peer}` : peer };
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
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

/** An entry the engine never reads (only an unserved feature): the answer is the key's verdict. */
const payload = JSON.stringify({ requests: [{ image: { content: 'AAAA' }, features: [{ type: 'LABEL_DETECTION' }] }] });

/** The client's own address: not the proxy's (127.0.0.1), so trusting the proxy does not trust it. */
const CLIENT = '127.0.0.2';

/** A POST from CLIENT through the proxy, with an X-Forwarded-For the client wrote itself. */
function callFrom(proxy: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${proxy}/v1/images:annotate`,
      {
        method: 'POST',
        localAddress: CLIENT,
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key, 'x-forwarded-for': '203.0.113.7' },
      },
      (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (c) => (body += c))
          .on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject).end(payload);
  });
}

for (const trustProxy of ['1', '127.0.0.1/32', '127.0.0.1,::1']) {
  test(`TRUST_PROXY=${trustProxy}: a spoofed X-Forwarded-For cannot pass an IP allow-list`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, 'sqlite', { TRUST_PROXY: trustProxy, OCR_WARM: 'false' });
    const owner = await createTestAccount(database, 'acme');
    const spoofed = await setupProject(app, owner, 'spoof-target', {
      apis: ['ocr'],
      key: { restrictions: { allowedIps: ['203.0.113.7'] } },
    });
    const real = await setupProject(app, owner, 'real-client', { apis: ['ocr'], key: { restrictions: { allowedIps: [CLIENT] } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const proxy = await reverseProxy(t, `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    const attack = await callFrom(proxy, spoofed.keyString!);
    t.assert.equal(attack.status, 403, attack.body);
    const honest = await callFrom(proxy, real.keyString!);
    t.assert.equal(honest.status, 200, honest.body);
  });
}

test('TRUST_PROXY takes false, a hop count or addresses; true (trust any client) is refused', (t: TestContext) => {
  t.assert.equal(loadConfig({}).trustProxy, false);
  t.assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  t.assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8' }).trustProxy, ['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
  for (const bad of ['true', 'yes', '10.0.0.0/33', 'example.com', '-1']) {
    t.assert.throws(() => loadConfig({ TRUST_PROXY: bad }), /TRUST_PROXY/, bad);
  }
});
