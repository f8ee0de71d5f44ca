import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { digestsEqual, hashSecret, parseSecret } from '../credentials/secret-format.ts';

/** Why a client authentication failed; a token endpoint answers all of them with `invalid_client` (RFC 6749 §5.2). */
export type ClientSecretFailure = 'SECRET_MALFORMED' | 'CLIENT_UNKNOWN' | 'SECRET_INVALID';

export type ClientSecretOutcome =
  | { ok: true; clientId: string; projectId: string; secretId: string }
  | { ok: false; code: ClientSecretFailure };

/** `lastUsedTime` is written at most once a minute per secret, not on every token request. */
const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Checks `secret` against the client's active secrets, for the token endpoint
 * (`client_secret_basic` / `client_secret_post`).
 *
 * - Malformed input (wrong prefix, kind or checksum) is refused before any store read.
 * - Only a confidential client of an ACTIVE project, and only its secrets that are neither revoked nor
 *   expired, can match; the answer reflects the store at this call (no cache), so revocation is immediate.
 * - The presented secret is hashed once and compared with every candidate digest using
 *   `crypto.timingSafeEqual` (fixed-length digests, no early exit).
 *
 * @example
 *   const outcome = await verifyClientSecret(db, clientId, presentedSecret, config.secretPepper);
 *   if (!outcome.ok) return invalidClient();   // outcome.code says why, for logs
 */
export async function verifyClientSecret(
  db: Kysely<Database>,
  clientId: string,
  secret: string,
  pepper?: string,
): Promise<ClientSecretOutcome> {
  if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 64) return { ok: false, code: 'CLIENT_UNKNOWN' };
  if (parseSecret(secret)?.kind !== 'client_secret') return { ok: false, code: 'SECRET_MALFORMED' };
  const client = await db
    .selectFrom('oauth_clients as c')
    .innerJoin('projects as p', 'p.project_id', 'c.project_id')
    .select(['c.client_id', 'c.project_id', 'c.token_endpoint_auth_method'])
    .where('c.client_id', '=', clientId)
    .where('p.state', '=', 'ACTIVE')
    .executeTakeFirst();
  if (!client || client.token_endpoint_auth_method === 'none') return { ok: false, code: 'CLIENT_UNKNOWN' };

  const now = new Date().toISOString();
  const candidates = await db
    .selectFrom('oauth_client_secrets')
    .select(['secret_id', 'secret_hash', 'last_used_time'])
    .where('client_id', '=', clientId)
    .where('revoke_time', 'is', null)
    .where((eb) => eb.or([eb('expire_time', 'is', null), eb('expire_time', '>', now)]))
    .execute();
  const digest = hashSecret(secret, pepper);
  let match: (typeof candidates)[number] | undefined;
  for (const candidate of candidates) {
    if (digestsEqual(candidate.secret_hash, digest)) match = candidate;
  }
  if (!match) return { ok: false, code: 'SECRET_INVALID' };

  if (!match.last_used_time || Date.parse(now) - Date.parse(match.last_used_time) >= LAST_USED_GRANULARITY_MS) {
    await db.updateTable('oauth_client_secrets').set({ last_used_time: now }).where('secret_id', '=', match.secret_id).execute();
  }
  return { ok: true, clientId: client.client_id, projectId: client.project_id, secretId: match.secret_id };
}
