import type { RateLimiter } from './rate-limiter.ts';

/**
 * Fixed one-minute windows aligned to the clock (the same shape a Redis `INCR` + `EXPIRE` limiter
 * has, so both behave alike). At most twice the limit can pass around a window boundary; that
 * burst is the accepted price of O(1) memory per key. Windows of past minutes are dropped lazily.
 */
export function createInMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { window: number; count: number }>();
  let lastSweep = 0;

  function sweep(window: number): void {
    if (window === lastSweep) return;
    lastSweep = window;
    for (const [key, entry] of windows) if (entry.window < window) windows.delete(key);
  }

  return {
    async hit(key, limitPerMinute) {
      const ms = now();
      const window = Math.floor(ms / 60_000);
      sweep(window);
      const entry = windows.get(key);
      const count = entry && entry.window === window ? entry.count + 1 : 1;
      windows.set(key, { window, count });
      const resetSeconds = Math.max(1, Math.ceil(((window + 1) * 60_000 - ms) / 1000));
      const allowed = count <= limitPerMinute;
      return { allowed, remaining: Math.max(0, limitPerMinute - count), resetSeconds };
    },
  };
}
