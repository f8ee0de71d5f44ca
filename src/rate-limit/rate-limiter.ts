/**
 * The narrow port the API uses to enforce per-project request rates (STYLE rule 6). The in-memory
 * implementation serves one node; a shared one (Redis) replaces it on `app.rateLimiter` when
 * several nodes serve the same projects.
 *
 * @example
 *   const decision = await app.rateLimiter.hit(`ocr:${projectId}`, 600);
 *   if (!decision.allowed) throw new AppError('RATE_LIMIT_EXCEEDED', …, { retryAfter: decision.resetSeconds });
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests still allowed in the current window (0 when refused). */
  remaining: number;
  /** Seconds until the current window ends and the budget is whole again (≥ 1). */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request against `key` and says whether it fits `limitPerMinute`. */
  hit(key: string, limitPerMinute: number): Promise<RateLimitDecision>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** In-memory by default (`app.ts`); the scale-out setup swaps in a shared one. */
    rateLimiter: RateLimiter;
  }
}
