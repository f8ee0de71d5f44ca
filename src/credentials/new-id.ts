import crypto from 'node:crypto';

const TIME_CHARS = 9; // base36 milliseconds: enough until the year 5138
const RANDOM_CHARS = 10;
const RANDOM_SPACE = 36n ** BigInt(RANDOM_CHARS);

let lastTime = 0;
let lastRandom = 0n;

/**
 * A public, non-secret, time-sortable id (ULID-like, lowercase base36), e.g. `newId('k')` →
 * `k-mhx3b2k0a4f9q2z7c1d`. Ids made later in this process sort after earlier ones (a counter breaks
 * ties within a millisecond), so lists can page by id. Unkey-style typed prefixes make ids
 * self-describing in logs (unkeyed/unkey internal/id/src/generate.ts).
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now <= lastTime) {
    lastRandom = (lastRandom + 1n) % RANDOM_SPACE;
  } else {
    lastTime = now;
    lastRandom = BigInt(`0x${crypto.randomBytes(8).toString('hex')}`) % (RANDOM_SPACE / 2n);
  }
  const time = lastTime.toString(36).padStart(TIME_CHARS, '0');
  return `${prefix}-${time}${lastRandom.toString(36).padStart(RANDOM_CHARS, '0')}`;
}
