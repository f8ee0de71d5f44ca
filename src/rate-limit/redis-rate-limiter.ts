import { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.ts';

/**
 * Sliding-window counter (the approximation Cloudflare and Unkey use): the current minute's count
 * plus the previous minute's count weighted by how much of it still overlaps the last 60 s. Only
 * accepted requests are counted. One atomic script on Redis' own clock (`TIME`), so every node
 * shares one counter and one clock: no 2× burst at a window edge as with a plain fixed window,
 * and within about one request of a true rolling window. Both windows share a `{hash tag}` so the
 * script also runs on Redis Cluster.
 * Returns {allowed 0|1, remaining, ms until the current window ends (allowed) or until the next
 * request fits (refused)}.
 */
const SLIDING_WINDOW_SCRIPT = `
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = math.floor(now / period)
local elapsed = now - window * period
local currKey = KEYS[1] .. ':' .. window
local prevKey = KEYS[1] .. ':' .. (window - 1)
local curr = tonumber(redis.call('GET', currKey) or '0')
local prev = tonumber(redis.call('GET', prevKey) or '0')
local weighted = prev * (period - elapsed) / period
if weighted + curr < limit then
  curr = redis.call('INCR', currKey)
  if curr == 1 then redis.call('PEXPIRE', currKey, period * 2) end
  local remaining = math.floor(limit - weighted - curr)
  if remaining < 0 then remaining = 0 end
  return {1, remaining, period - elapsed}
end
local retry
if curr >= limit then
  retry = (period - elapsed) + math.ceil(period * (1 - limit / curr)) + 1
else
  retry = math.ceil(period * (1 - (limit - curr) / prev)) - elapsed + 1
end
return {0, 0, retry}
`;

const WINDOW_MS = 60_000;

export interface RedisRateLimiterOptions {
  /** `redis://…` or `rediss://…`. */
  url: string;
  /** Prefix of every key this limiter writes (several deployments or test runs can share a Redis). */
  keyPrefix: string;
  /** A command slower than this fails (and the caller falls back): a slow Redis must not slow the API. */
  commandTimeoutMs?: number;
  /** Reports connection errors; ioredis keeps reconnecting in the background. */
  onError?: (err: unknown) => void;
}

export interface RedisRateLimiter extends RateLimiter {
  /** Resolves once connected, or after `timeoutMs` anyway (a down Redis must not block startup). */
  waitUntilReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

type WithScript = Redis & { legibleSlidingWindow(key: string, limit: number, period: number): Promise<[number, number, number]> };

/**
 * The shared `RateLimiter` for several nodes. `hit` rejects when Redis is unreachable or slow —
 * commands are never queued while disconnected — so `createFailOpenRateLimiter` can answer at once
 * from the local limiter.
 *
 * @example
 *   const limiter = createRedisRateLimiter({ url: 'redis://127.0.0.1:6379', keyPrefix: 'legible:' });
 *   const d = await limiter.hit('ocr:demo-project', 600); // { allowed, remaining, resetSeconds }
 */
export function createRedisRateLimiter(opts: RedisRateLimiterOptions): RedisRateLimiter {
  const redis = new Redis(opts.url, {
    keyPrefix: opts.keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: opts.commandTimeoutMs ?? 250,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
    lazyConnect: false,
  }) as WithScript;
  redis.on('error', (err) => opts.onError?.(err));
  redis.defineCommand('legibleSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });

  return {
    async hit(key: string, limitPerMinute: number): Promise<RateLimitDecision> {
      const [allowed, remaining, ms] = await redis.legibleSlidingWindow(`rl:{${key}}`, limitPerMinute, WINDOW_MS);
      return { allowed: allowed === 1, remaining: Number(remaining), resetSeconds: Math.max(1, Math.ceil(Number(ms) / 1000)) };
    },
    async waitUntilReady(timeoutMs) {
      if (redis.status === 'ready') return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          redis.off('ready', onReady);
          resolve(false);
        }, timeoutMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve(true);
        };
        redis.once('ready', onReady);
      });
    },
    async close() {
      redis.disconnect();
    },
  };
}
