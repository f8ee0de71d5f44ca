import { SECRET_PREFIXES } from '../credentials/secret-format.ts';

/**
 * Response fields that carry a one-time secret. They are never stored for replay: a replayed
 * response has them removed (KEYS-SECURITY.md §6.2 option (b)); the client learns which ones from
 * `secretUnavailable` and rotates to get a new secret. `token` is the account token's field.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['keyString', 'secret', 'clientSecret', 'secretText', 'token']);

/** A Legible secret inside any string (a display `hint` is the prefix and 4 characters: not one). */
const SECRET_IN_TEXT = new RegExp(`(?:${Object.values(SECRET_PREFIXES).join('|')})[0-9A-Za-z]{20}`);
/** Any string holding a Legible secret, whatever field carries it: a field missing from the list must not leak. */
const looksSecret = (value: unknown): boolean => typeof value === 'string' && SECRET_IN_TEXT.test(value);

/** Deeper than any response we send; a body nested further is dropped whole rather than walked. */
const MAX_DEPTH = 16;

/** Removes secrets from a JSON body (by field name or by value, at any depth); returns their paths. */
export function redactSecrets(body: string): { body: string; redactedFields: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON: stored only if it carries nothing that looks like a secret.
    return looksSecret(body) ? { body: '{}', redactedFields: ['(body)'] } : { body, redactedFields: [] };
  }
  const redactedFields: string[] = [];
  const strip = (value: unknown, at: string, depth: number): unknown => {
    if (depth > MAX_DEPTH) {
      redactedFields.push(at || '(body)');
      return undefined;
    }
    if (Array.isArray(value)) return value.map((v, i) => strip(v, `${at}[${i}]`, depth + 1)).filter((v) => v !== undefined);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).flatMap(([k, v]) => {
          const field = at ? `${at}.${k}` : k;
          if (SECRET_FIELDS.has(k) || looksSecret(v)) {
            redactedFields.push(field);
            return [];
          }
          const kept = strip(v, field, depth + 1);
          return kept === undefined ? [] : [[k, kept]];
        }),
      );
    }
    if (looksSecret(value)) {
      redactedFields.push(at || '(body)');
      return undefined;
    }
    return value;
  };
  const stripped = strip(parsed, '', 0);
  return redactedFields.length ? { body: JSON.stringify(stripped ?? {}), redactedFields } : { body, redactedFields };
}

/** The replayed body: the stored one, plus a `secretUnavailable` notice when secrets were removed. */
export function replayBody(stored: string, redactedFields: string[]): string {
  if (redactedFields.length === 0) return stored;
  const parsed = JSON.parse(stored) as Record<string, unknown>;
  return JSON.stringify({
    ...parsed,
    secretUnavailable: {
      fields: redactedFields,
      message:
        'This is a replay of an earlier request with the same Idempotency-Key. Secrets are shown only once and are never stored, ' +
        'so they are omitted here. If you lost the secret, rotate the credential (e.g. POST …/api-keys/{keyId}:rotate) or revoke it.',
    },
  });
}

/** The answer to a retry whose change committed but whose response was lost with its node. */
export function recoveredBody(change: { action: string; resourceType: string; resourceId: string }): string {
  return JSON.stringify({
    recovered: change,
    secretUnavailable: {
      fields: [],
      message:
        'This Idempotency-Key was applied (see `recovered`), but the server stopped before its response was stored. ' +
        'Read the resource to get its current state; secrets are shown only once: if one was created, rotate it.',
    },
  });
}
