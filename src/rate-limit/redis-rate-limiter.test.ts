import crypto from 'node:crypto';
import { test, type TestContext } from 'node:test';
import pino from 'pino';
import { createRedisRateLimiter } from './redis-rate-limiter.ts';
import { createFailOpenRateLimiter } from './fail-open-rate-limiter.ts';
import { createInMemoryRateLimiter } from './in-memory-rate-limiter.ts';
import { closedPort } from '../../test/helpers/tcp-proxy.ts';

const REDIS_URL = process.env.REDIS_URL?.startsWith('redis') ? process.env.REDIS_URL : undefined;
const skip = REDIS_URL ? false : 'needs REDIS_URL (.ci/run sets it)';
const prefix = () => `t-${crypto.randomBytes(5).toString('hex')}:`;

test('Redis limiter: two nodes share one budget, exactly the limit under concurrency', { skip }, async (t: TestContext) => {
  const keyPrefix = prefix();
  const [a, b] = [createRedisRateLimiter({ url: REDIS_URL!, keyPrefix }), createRedisRateLimiter({ url: REDIS_URL!, keyPrefix })];
  t.after(() => Promise.all([a.close(), b.close()]));
  t.assert.ok(await a.waitUntilReady(2000));
  t.assert.ok(await b.waitUntilReady(2000));
  const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit('ocr:p1', 20)));
  t.assert.equal(decisions.filter((d) => d.allowed).length, 20);
  for (const d of decisions.filter((x) => !x.allowed)) {
    t.assert.equal(d.remaining, 0);
    t.assert.ok(d.resetSeconds >= 1 && d.resetSeconds <= 61, `retry after ${d.resetSeconds}`);
  }
  const remaining = decisions
    .filter((d) => d.allowed)
    .map((d) => d.remaining)
    .sort((x, y) => x - y);
  t.assert.deepEqual(
    remaining,
    Array.from({ length: 20 }, (_, i) => i),
    'each accepted request sees one less',
  );
  t.assert.equal((await a.hit('ocr:p2', 20)).allowed, true, 'keys are independent');
  t.assert.equal((await a.hit('ocr:p1', 1000)).allowed, true, 'a raised limit applies at once');
});

test('Redis limiter: hostile keys and limits stay inside their own bucket', { skip }, async (t: TestContext) => {
  const limiter = createRedisRateLimiter({ url: REDIS_URL!, keyPrefix: prefix() });
  t.after(() => limiter.close());
  await limiter.waitUntilReady(2000);
  for (const key of ['}{', '{a}', '*', `ocr:${'x'.repeat(500)}`, "'; redis.call('FLUSHALL') --", '\u0000\n']) {
    const first = await limiter.hit(key, 1);
    t.assert.equal(first.allowed, true, JSON.stringify(key));
    t.assert.equal(first.remaining, 0);
  }
  t.assert.equal((await limiter.hit('{a}', 1)).allowed, false);
  t.assert.equal((await limiter.hit('ocr:tiny', 1)).allowed, true);
  t.assert.equal((await limiter.hit('ocr:tiny', 1)).allowed, false);
});

test('Redis down (closed port): fails open to the local limiter at once, logged once, counted', async (t: TestContext) => {
  const port = await closedPort();
  const redis = createRedisRateLimiter({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'x:' });
  t.after(() => redis.close());
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (l: string) => lines.push(l) });
  let failOpen = 0;
  const limiter = createFailOpenRateLimiter({
    primary: redis,
    fallback: createInMemoryRateLimiter(),
    log,
    onFailOpen: () => (failOpen += 1),
  });
  const decisions = [];
  for (let i = 0; i < 5; i += 1) decisions.push(await limiter.hit('ocr:p', 3));
  // The local fixed window: 3 per minute (a minute boundary inside the loop could allow up to 5).
  const allowed = decisions.filter((d) => d.allowed).length;
  t.assert.ok(allowed >= 3 && allowed <= 5, `allowed ${allowed}`);
  t.assert.equal(failOpen, 5);
  t.assert.equal(lines.filter((l) => l.includes('Redis is unreachable')).length, 1);
});
