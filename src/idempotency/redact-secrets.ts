/**
 * Response fields that carry a one-time secret. They are never stored for replay: a replayed
 * response has them removed (KEYS-SECURITY.md §6.2 option (b)); the client learns which ones from
 * `secretUnavailable` and rotates to get a new secret.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['keyString', 'secret', 'clientSecret', 'secretText']);

/** Removes secret fields from a JSON object body (top level and one level down); returns their paths. */
export function redactSecrets(body: string): { body: string; redactedFields: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { body, redactedFields: [] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { body, redactedFields: [] };
  const redactedFields: string[] = [];
  const strip = (obj: Record<string, unknown>, prefix: string, depth: number): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(obj).flatMap(([k, v]) => {
        if (SECRET_FIELDS.has(k)) {
          redactedFields.push(prefix + k);
          return [];
        }
        if (depth > 0 && v !== null && typeof v === 'object' && !Array.isArray(v)) {
          return [[k, strip(v as Record<string, unknown>, `${prefix}${k}.`, depth - 1)]];
        }
        return [[k, v]];
      }),
    );
  const stripped = strip(parsed as Record<string, unknown>, '', 1);
  return redactedFields.length ? { body: JSON.stringify(stripped), redactedFields } : { body, redactedFields };
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
