import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiter } from './rate-limiter.ts';

export interface FailOpenRateLimiterDeps {
  /** The shared limiter (Redis). */
  primary: RateLimiter;
  /** This node's own limiter, used while the shared one fails. */
  fallback: RateLimiter;
  log: FastifyBaseLogger;
  /** Counted in `/metrics` (`legible_rate_limit_fail_open_total`). */
  onFailOpen?: () => void;
}

/**
 * When Redis is down, keep serving with each node's local limits ("fail open with local limits",
 * Unkey's degrade-to-local; @fastify/rate-limit's `skipOnError`) rather than refusing every API
 * call (fail closed) or dropping limits altogether. During the outage a project can get up to
 * `nodes × requestsPerMinute`. Logged once when the outage starts and once when it ends.
 */
export function createFailOpenRateLimiter(deps: FailOpenRateLimiterDeps): RateLimiter {
  let inOutage = false;
  return {
    async hit(key, limitPerMinute) {
      try {
        const decision = await deps.primary.hit(key, limitPerMinute);
        if (inOutage) {
          inOutage = false;
          deps.log.warn('Redis is reachable again: rate limits are shared across nodes again');
        }
        return decision;
      } catch (err) {
        if (!inOutage) {
          inOutage = true;
          deps.log.error({ err }, "Redis is unreachable: rate limits fall back to this node's local limiter (fail open) until it returns");
        }
        deps.onFailOpen?.();
        return deps.fallback.hit(key, limitPerMinute);
      }
    },
  };
}
