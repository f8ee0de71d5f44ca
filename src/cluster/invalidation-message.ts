/** The PostgreSQL channel every node LISTENs on (one per database, so per deployment). */
export const INVALIDATION_CHANNEL = 'legible_invalidate';

/** What changed: a key (revoked, rotated, edited) or a whole project (deleted, api toggled, quota). */
export interface InvalidationMessage {
  kind: 'key' | 'project';
  id: string;
}

/** NOTIFY payloads are limited to 8000 bytes; ours are tiny. Ids are our own, at most a few dozen chars. */
const MAX_ID_LENGTH = 200;

/** Parses a NOTIFY payload; anything malformed (another writer, a future version) is ignored. */
export function parseInvalidation(payload: string | undefined): InvalidationMessage | undefined {
  if (!payload || payload.length > 1000) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const { kind, id } = (value ?? {}) as Record<string, unknown>;
  if ((kind !== 'key' && kind !== 'project') || typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH) return undefined;
  return { kind, id };
}

export function formatInvalidation(message: InvalidationMessage): string {
  return JSON.stringify({ kind: message.kind, id: message.id });
}
