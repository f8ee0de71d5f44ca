import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { AppError } from '../errors.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { NO_KEY, outcomeOf, type UsageRepository } from '../usage/usage-repository.ts';

/** Who a Vision request is charged to: set by the route's authentication step. */
export interface VisionCaller {
  projectId: string;
  api: 'ocr';
  requestsPerMinute: number;
  /** Set for API keys: who started an operation (audit). */
  accountId?: string;
  keyId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request is authenticated for OCR (API key, or account token on the playground). */
    visionCaller?: VisionCaller;
    /** Images (or file pages) a Vision handler read, when the body's `requests` do not say it. */
    visionImages?: number;
  }
}

/**
 * The project's rate limit (`quota.requestsPerMinute` of its ocr api), shared by all its keys and
 * the console playground: 429 RATE_LIMIT_EXCEEDED with Retry-After, and `X-RateLimit-*` headers on
 * every answer.
 */
export function rateLimitHook(rateLimiter: RateLimiter) {
  return async function enforceRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const caller = request.visionCaller;
    if (!caller) throw new AppError('INTERNAL', 'Vision route registered without authentication.');
    const limit = caller.requestsPerMinute;
    const decision = await rateLimiter.hit(`${caller.api}:${caller.projectId}`, limit);
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(decision.resetSeconds),
    };
    if (!decision.allowed) {
      const consumer = `projects/${caller.projectId}`;
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service '${caller.api}' for consumer '${consumer}'. ` +
          `Raise it with PATCH /api/projects/${caller.projectId}/apis/${caller.api} {"quota":{"requestsPerMinute":…}}.`,
        {
          retryAfter: decision.resetSeconds,
          headers,
          metadata: {
            consumer,
            service: caller.api,
            quota_metric: 'requests',
            quota_limit: 'RequestsPerMinutePerProject',
            quota_limit_value: String(limit),
          },
        },
      );
    }
    void reply.headers(headers);
  };
}

function imagesIn(body: unknown): number {
  const requests = (body as { requests?: unknown } | null | undefined)?.requests;
  return Array.isArray(requests) ? requests.length : 0;
}

/**
 * Counts every answered request of an authenticated caller (an `onSend` hook: the outcome is
 * decided, and the count is stored before the response leaves, so a 2xx is always counted).
 * The count goes to the caller's API key, or to `keyless` (e.g. `CONSOLE_KEY` on the playground).
 * A request that read images also adds its time so far (`reply.elapsedTime`: the work is done,
 * only the send is left) to the latency histogram of the same row. A failed write is logged, never
 * turned into a failed response. Callback style: a request refused before authentication (nobody
 * to charge) passes through without a promise.
 */
export function usageHook(usage: UsageRepository, keyless = NO_KEY): onSendHookHandler<unknown> {
  return function countUsage(request, reply, payload, done) {
    const caller = request.visionCaller;
    if (!caller) return done(null, payload);
    const images = request.visionImages ?? imagesIn(request.body);
    usage
      .record({
        projectId: caller.projectId,
        api: caller.api,
        key: caller.keyId ?? keyless,
        at: new Date(),
        outcome: outcomeOf(reply.statusCode),
        requests: 1,
        images,
        // Polls and job starts read no image: their few milliseconds would only dilute OCR latency.
        ...(images > 0 ? { latencyMs: reply.elapsedTime } : {}),
      })
      .catch((err: unknown) => request.log.error({ err }, 'could not record usage'))
      .then(() => done(null, payload));
  };
}
