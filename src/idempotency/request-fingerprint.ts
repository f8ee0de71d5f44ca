import crypto from 'node:crypto';

/** JSON with object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}` fingerprint alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What "the same request" means for an `Idempotency-Key`: the method, the path with its query, and
 * the validated body. The same key sent with anything else is a 422 (IETF draft
 * draft-ietf-httpapi-idempotency-key-header §2.6; Stripe compares parameters likewise).
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body)}`)
    .digest('hex');
}
