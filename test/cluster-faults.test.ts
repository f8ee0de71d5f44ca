import crypto from 'node:crypto';
import { after, before, describe, test, type TestContext } from 'node:test';
import sharp from 'sharp';
import {
  CLUSTER_POSTGRES_URL,
  CLUSTER_REDIS_URL,
  CLUSTER_SKIP,
  call,
  createClusterDatabase,
  ocr,
  setupProject,
  startNode,
  waitFor,
  withDatabase,
} from './helpers/cluster-node.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

/**
 * Faults on real processes: Redis and PostgreSQL taken away (through a loopback relay that is cut
 * and restored) and SIGTERM during an in-flight OCR request.
 */
describe('faults', { skip: CLUSTER_SKIP }, () => {
  let db: Awaited<ReturnType<typeof createClusterDatabase>>;
  const prefix = () => `t-${crypto.randomBytes(4).toString('hex')}:`;
  before(async () => {
    db = await createClusterDatabase();
  });
  after(async () => db?.drop());

  test('Redis unreachable → fail open with the local limiter, logged once, counted; shared again when it returns', async (t: TestContext) => {
    const redisPort = Number(new URL(CLUSTER_REDIS_URL!).port || 6379);
    const relay = await startTcpProxy(redisPort, new URL(CLUSTER_REDIS_URL!).hostname);
    await relay.cut(); // a closed port: Redis is down before the node starts
    const node = await startNode({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${relay.port}`, REDIS_KEY_PREFIX: prefix() });
    t.after(async () => {
      await node.stop();
      await relay.close();
    });
    const { projectId, keyString } = await setupProject(node.url, db.token, db.accountId);
    await call(node.url, 'PATCH', `/api/projects/${projectId}/apis/ocr`, { token: db.token, body: { quota: { requestsPerMinute: 5 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await ocr(node.url, keyString)).status);
    // Local fixed windows: 5 per minute (at most 10 if a minute boundary falls inside the run).
    const accepted = statuses.filter((s) => s === 200).length;
    t.assert.ok(accepted >= 5 && accepted <= 10, statuses.join(','));
    t.assert.ok(statuses.includes(429), statuses.join(','));
    t.assert.ok(
      statuses.every((s) => s === 200 || s === 429),
      statuses.join(','),
    );

    const metrics = String((await call(node.url, 'GET', '/metrics')).body);
    const failOpen = Number(/^legible_rate_limit_fail_open_total (\d+)/m.exec(metrics)?.[1]);
    t.assert.ok(failOpen >= 12, `fail-open count ${failOpen}`);
    const outageLogs = node.logs.filter((l) => l.includes('Redis is unreachable'));
    t.assert.equal(outageLogs.length, 1, 'logged once per outage');

    await relay.restore();
    await waitFor(
      async () => {
        await ocr(node.url, keyString);
        return node.logs.some((l) => l.includes('Redis is reachable again'));
      },
      15_000,
      200,
    );
    const before = Number(/^legible_rate_limit_fail_open_total (\d+)/m.exec(String((await call(node.url, 'GET', '/metrics')).body))?.[1]);
    const shared = await ocr(node.url, keyString);
    t.assert.ok(shared.status === 200 || shared.status === 429);
    const afterCount = Number(
      /^legible_rate_limit_fail_open_total (\d+)/m.exec(String((await call(node.url, 'GET', '/metrics')).body))?.[1],
    );
    t.assert.equal(afterCount, before, 'decisions come from Redis again');
  });

  test('PostgreSQL down → setup routes 503, /readyz 503, no crash, no partial write; recovers without restart', async (t: TestContext) => {
    const pgPort = Number(new URL(CLUSTER_POSTGRES_URL!).port || 5432);
    const relay = await startTcpProxy(pgPort, new URL(CLUSTER_POSTGRES_URL!).hostname);
    const node = await startNode({
      DATABASE_URL: withDatabase(CLUSTER_POSTGRES_URL!, db.name, relay.port),
      REDIS_URL: CLUSTER_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix(),
    });
    t.after(async () => {
      await node.stop();
      await relay.close();
    });
    const { projectId } = await setupProject(node.url, db.token, db.accountId);
    const newKey = await call(node.url, 'POST', `/api/projects/${projectId}/api-keys`, { token: db.token, body: {} });

    await relay.cut();
    const created = await call(node.url, 'POST', `/api/accounts/${db.accountId}/projects`, {
      token: db.token,
      body: { projectId: 'during-outage' },
    });
    t.assert.equal(created.status, 503, JSON.stringify(created.body));
    t.assert.equal(created.body.error.status, 'UNAVAILABLE');
    t.assert.ok(Number(created.headers.get('retry-after')) >= 1);
    t.assert.ok(!JSON.stringify(created.body).includes('ECONNREFUSED'), 'no internals in the message');
    const read = await call(node.url, 'GET', `/api/projects/${projectId}`, { token: db.token });
    t.assert.equal(read.status, 503);
    const ready = await call(node.url, 'GET', '/readyz');
    t.assert.equal(ready.status, 503);
    t.assert.equal(ready.body.error.status, 'UNAVAILABLE');
    t.assert.equal((await call(node.url, 'GET', '/healthz')).status, 200, 'alive: no restart needed');
    t.assert.equal(
      (await ocr(node.url, newKey.body.keyString)).status,
      503,
      'an API key that is not cached cannot be checked: 503, not 500',
    );
    t.assert.equal(node.process.exitCode, null);

    await relay.restore();
    await waitFor(async () => (await call(node.url, 'GET', '/readyz')).status === 200, 20_000, 200);
    t.assert.equal((await call(node.url, 'GET', '/api/projects/during-outage', { token: db.token })).status, 404, 'nothing was written');
    const retried = await call(node.url, 'POST', `/api/accounts/${db.accountId}/projects`, {
      token: db.token,
      body: { projectId: 'during-outage' },
    });
    t.assert.equal(retried.status, 201);
    await waitFor(async () => node.logs.some((l) => l.includes('listening for cache invalidations') && l.includes('"time"')), 5000);
  });

  test('8 concurrent OCR clients beyond the queue bound: only 200 or 503 UNAVAILABLE with Retry-After', async (t: TestContext) => {
    const node = await startNode({ DATABASE_URL: db.url, REDIS_URL: CLUSTER_REDIS_URL!, REDIS_KEY_PREFIX: prefix(), OCR_QUEUE_MAX: '1' });
    t.after(() => node.stop());
    const { keyString } = await setupProject(node.url, db.token, db.accountId);
    const page = await textImage();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(node.url, 'POST', '/v1/images:annotate', {
          headers: { 'x-goog-api-key': keyString },
          body: { requests: [{ image: { content: page }, features: [{ type: 'TEXT_DETECTION' }] }] },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    t.assert.ok(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(','),
    );
    t.assert.ok(statuses.includes(200) && statuses.includes(503), `a bounded queue sheds the excess at once: ${statuses.join(',')}`);
    for (const r of results.filter((x) => x.status === 503)) {
      t.assert.equal(r.body.error.status, 'UNAVAILABLE');
      t.assert.ok(Number(r.headers.get('retry-after')) >= 1);
    }
  });

  test('a node loads the OCR models at start-up, before any image arrives (OCR_WARM)', async (t: TestContext) => {
    const node = await startNode({ DATABASE_URL: db.url, REDIS_URL: CLUSTER_REDIS_URL!, REDIS_KEY_PREFIX: prefix() });
    t.after(() => node.stop());
    const loaded = () => node.logs.find((l) => l.includes('OCR models loaded'));
    await waitFor(async () => loaded() !== undefined, 60_000, 100);
    t.assert.equal(JSON.parse(loaded()!).workers, 1);

    const lazy = await startNode({ DATABASE_URL: db.url, REDIS_URL: CLUSTER_REDIS_URL!, REDIS_KEY_PREFIX: prefix(), OCR_WARM: 'false' });
    t.after(() => lazy.stop());
    await new Promise((resolve) => setTimeout(resolve, 3000));
    t.assert.ok(!lazy.logs.some((l) => l.includes('OCR models loaded')), 'OCR_WARM=false leaves the models for the first image');
  });

  test('SIGTERM during an in-flight OCR request: /readyz 503 first, the request completes, exit code 0', async (t: TestContext) => {
    const node = await startNode({
      DATABASE_URL: db.url,
      REDIS_URL: CLUSTER_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix(),
      SHUTDOWN_DRAIN_MS: '1500',
    });
    t.after(() => node.stop());
    const { keyString } = await setupProject(node.url, db.token, db.accountId);
    t.assert.equal((await ocr(node.url, keyString)).status, 200, 'warm');
    const page = await textImage();
    const slow = call(node.url, 'POST', '/v1/images:annotate', {
      headers: { 'x-goog-api-key': keyString },
      body: { requests: Array.from({ length: 6 }, () => ({ image: { content: page }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] })) },
    });
    let finished = false;
    void slow.then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    node.process.kill('SIGTERM');
    await waitFor(async () => (await call(node.url, 'GET', '/readyz').catch(() => ({ status: 0 }))).status === 503, 1000, 25);
    t.assert.equal(finished, false, '/readyz failed while the OCR request was still running');
    const result = await slow;
    t.assert.equal(result.status, 200, JSON.stringify(result.body).slice(0, 300));
    t.assert.equal(result.body.responses.length, 6);
    t.assert.ok(result.body.responses.every((r: { error?: unknown }) => r.error === undefined));
    t.assert.equal(await node.exited, 0);
  });
});

/** A 1280×720 page of text (rendered), so a batch of them keeps the one OCR worker busy for a while. */
async function textImage(): Promise<string> {
  const lines = Array.from(
    { length: 14 },
    (_, i) =>
      `<text x="40" y="${60 + i * 46}" font-size="34" font-family="sans-serif">Line ${i + 1}: the quick brown fox jumps over the lazy dog ${i * 7}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="100%" height="100%" fill="white"/>${lines.join('')}</svg>`;
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
}
