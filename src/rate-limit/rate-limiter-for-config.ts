import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiter } from './rate-limiter.ts';
import { createInMemoryRateLimiter } from './in-memory-rate-limiter.ts';
import { createRedisRateLimiter } from './redis-rate-limiter.ts';
import { createFailOpenRateLimiter } from './fail-open-rate-limiter.ts';

export interface ConfiguredRateLimiter {
  limiter: RateLimiter;
  /** Waits (briefly) for Redis at startup, so the first requests are already shared-limited. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition-root choice: in-memory for one node; with `REDIS_URL`, Redis shared by every
 * node, failing open to the in-memory limiter while Redis is unreachable.
 */
export function rateLimiterFor(
  config: { redisUrl?: string; redisKeyPrefix: string },
  deps: { log: FastifyBaseLogger; onFailOpen?: () => void },
): ConfiguredRateLimiter {
  const local = createInMemoryRateLimiter();
  if (!config.redisUrl) return { limiter: local, ready: async () => {}, close: async () => {} };
  const redis = createRedisRateLimiter({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    onError: (err) => deps.log.debug({ err }, 'redis connection error'),
  });
  return {
    limiter: createFailOpenRateLimiter({ primary: redis, fallback: local, log: deps.log, onFailOpen: deps.onFailOpen }),
    async ready() {
      if (!(await redis.waitUntilReady(2000))) deps.log.warn('Redis is not reachable yet; rate limits are local until it is');
    },
    close: () => redis.close(),
  };
}
