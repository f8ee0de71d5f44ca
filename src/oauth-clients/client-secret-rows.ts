import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import { newId } from '../credentials/new-id.ts';
import { generateSecret, hashSecret } from '../credentials/secret-format.ts';
import type { OAuthClientSecretsTable } from './oauth-clients-tables.ts';
import type { ClientSecret, ClientSecretCreated, SecretState } from './oauth-clients-schemas.ts';

// Row-level reads and writes of client secrets that both OAuth repositories run inside their own
// transactions (a confidential client is created with its first secret); the repositories own the
// transactions and the audit rows.

type Db = Kysely<Database> | Transaction<Database>;
export type ClientSecretRow = Selectable<OAuthClientSecretsTable>;

/** REVOKED once revoked; EXPIRED from `expireTime` on; ACTIVE otherwise. */
export function secretState(row: Pick<ClientSecretRow, 'revoke_time' | 'expire_time'>, now: string): SecretState {
  if (row.revoke_time !== null) return 'REVOKED';
  if (row.expire_time !== null && row.expire_time <= now) return 'EXPIRED';
  return 'ACTIVE';
}

export function toClientSecret(row: ClientSecretRow, now = new Date().toISOString()): ClientSecret {
  return {
    secretId: row.secret_id,
    clientId: row.client_id,
    displayName: row.display_name,
    hint: row.hint,
    state: secretState(row, now),
    createTime: row.create_time,
    ...(row.expire_time ? { expireTime: row.expire_time } : {}),
    ...(row.revoke_time ? { revokeTime: row.revoke_time } : {}),
    ...(row.last_used_time ? { lastUsedTime: row.last_used_time } : {}),
  };
}

/** Stores a new secret's hash and returns the secret itself, which is never stored or shown again. */
export async function insertClientSecret(
  db: Db,
  clientId: string,
  opts: { displayName: string; expireTime?: string },
  pepper?: string,
): Promise<ClientSecretCreated> {
  const { secret, hint } = generateSecret('client_secret');
  const row: ClientSecretRow = {
    secret_id: newId('ocs'),
    client_id: clientId,
    secret_hash: hashSecret(secret, pepper),
    hint,
    display_name: opts.displayName,
    create_time: new Date().toISOString(),
    expire_time: opts.expireTime ?? null,
    revoke_time: null,
    last_used_time: null,
  };
  await db.insertInto('oauth_client_secrets').values(row).execute();
  return { ...toClientSecret(row), clientSecret: secret };
}

export async function countActiveSecrets(db: Db, clientId: string, now = new Date().toISOString()): Promise<number> {
  const { n } = await db
    .selectFrom('oauth_client_secrets')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('client_id', '=', clientId)
    .where('revoke_time', 'is', null)
    .where((eb) => eb.or([eb('expire_time', 'is', null), eb('expire_time', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(n);
}
