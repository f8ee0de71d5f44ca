import { test, type TestContext } from 'node:test';
import { createInMemoryRateLimiter } from './in-memory-rate-limiter.ts';

test('in-memory rate limiter: a fixed one-minute window per key', async (t: TestContext) => {
  let now = Date.UTC(2025, 0, 1, 12, 0, 15); // 45 s before the window ends
  const limiter = createInMemoryRateLimiter(() => now);
  t.assert.deepEqual(await limiter.hit('ocr:a', 2), { allowed: true, remaining: 1, resetSeconds: 45 });
  t.assert.deepEqual(await limiter.hit('ocr:a', 2), { allowed: true, remaining: 0, resetSeconds: 45 });
  t.assert.deepEqual(await limiter.hit('ocr:a', 2), { allowed: false, remaining: 0, resetSeconds: 45 });
  t.assert.equal((await limiter.hit('ocr:b', 2)).allowed, true, 'keys are independent');
  now += 45_000; // the next window
  t.assert.deepEqual(await limiter.hit('ocr:a', 2), { allowed: true, remaining: 1, resetSeconds: 60 });
  now += 59_999;
  t.assert.equal((await limiter.hit('ocr:a', 2)).resetSeconds, 1, 'never 0');
});
