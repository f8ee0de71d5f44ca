import crypto from 'node:crypto';

/**
 * Request ids for requests that arrive without `X-Request-Id`: `<16 hex chars>-<counter, base 36>`,
 * e.g. `9f1c04e2b7a35d60-1k3`. The prefix is 64 random bits drawn once per process, so ids stay
 * unique across nodes and restarts; per request it is a counter instead of `crypto.randomUUID()`,
 * which was a measurable part of a refused request's cost (`npm run bench:load`, part (a)).
 */
export function createRequestIdGenerator(): () => string {
  const prefix = `${crypto.randomBytes(8).toString('hex')}-`;
  let counter = 0;
  return () => {
    counter += 1;
    return prefix + counter.toString(36);
  };
}
