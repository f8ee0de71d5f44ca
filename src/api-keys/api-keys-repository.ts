import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { ApiKeysTable } from './api-keys-tables.ts';
import type { ApiKey, KeyRestrictions } from './api-keys-schemas.ts';
import { generateSecret, hashSecret } from '../credentials/secret-format.ts';
import { newId } from '../credentials/new-id.ts';
import { decodePageToken, toPage, DEFAULT_PAGE_SIZE } from '../shared/pagination.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export function toApiKey(row: ApiKeyRow, now = Date.now()): ApiKey {
  const state = row.delete_time ? 'REVOKED' : row.expire_time && Date.parse(row.expire_time) <= now ? 'EXPIRED' : 'ACTIVE';
  return {
    name: `projects/${row.project_id}/apiKeys/${row.key_id}`,
    keyId: row.key_id,
    projectId: row.project_id,
    displayName: row.display_name,
    hint: row.hint,
    state,
    restrictions: JSON.parse(row.restrictions) as KeyRestrictions,
    createTime: row.create_time,
    updateTime: row.update_time,
    ...(row.expire_time ? { expireTime: row.expire_time } : {}),
    ...(row.delete_time ? { deleteTime: row.delete_time } : {}),
    ...(row.last_used_time ? { lastUsedTime: row.last_used_time } : {}),
  };
}

/** The key's row only when it belongs to `projectId` (a key id of another project answers 404). */
export async function findApiKey(db: Db, projectId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).where('project_id', '=', projectId).executeTakeFirst();
}

async function insertSecret(db: Db, keyId: string, pepper: string | undefined, now: string): Promise<{ secret: string; hint: string }> {
  const { secret, hint } = generateSecret('api_key');
  await db.insertInto('api_key_secrets').values({ secret_hash: hashSecret(secret, pepper), key_id: keyId, hint, create_time: now, expire_time: null }).execute();
  return { secret, hint };
}

export async function insertApiKey(
  db: Db,
  pepper: string | undefined,
  k: { projectId: string; displayName: string; restrictions: KeyRestrictions; expireTime?: string },
): Promise<{ row: ApiKeyRow; secret: string }> {
  const now = new Date().toISOString();
  const keyId = newId('k');
  const { secret, hint } = generateSecret('api_key');
  const row: ApiKeyRow = {
    key_id: keyId,
    project_id: k.projectId,
    display_name: k.displayName,
    restrictions: JSON.stringify(k.restrictions),
    hint,
    create_time: now,
    update_time: now,
    expire_time: k.expireTime ?? null,
    delete_time: null,
    last_used_time: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  await db.insertInto('api_key_secrets').values({ secret_hash: hashSecret(secret, pepper), key_id: keyId, hint, create_time: now, expire_time: null }).execute();
  return { row, secret };
}

export async function listApiKeys(
  db: Db,
  projectId: string,
  opts: { pageSize?: number; pageToken?: string; showDeleted?: boolean },
): Promise<{ items: ApiKeyRow[]; nextPageToken?: string }> {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const after = decodePageToken(opts.pageToken);
  let q = db.selectFrom('api_keys').selectAll().where('project_id', '=', projectId);
  if (!opts.showDeleted) q = q.where('delete_time', 'is', null);
  if (after) q = q.where('key_id', '>', after);
  const rows = await q.orderBy('key_id').limit(pageSize + 1).execute();
  return toPage(rows, pageSize, (r) => r.key_id);
}

export async function updateApiKeyRow(
  db: Db,
  keyId: string,
  changes: { displayName?: string; restrictions?: KeyRestrictions; expireTime?: string | null },
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({
      ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
      ...(changes.restrictions !== undefined ? { restrictions: JSON.stringify(changes.restrictions) } : {}),
      ...(changes.expireTime !== undefined ? { expire_time: changes.expireTime } : {}),
      update_time: new Date().toISOString(),
    })
    .where('key_id', '=', keyId)
    .execute();
}

export async function revokeApiKeyRow(db: Db, keyId: string): Promise<string> {
  const now = new Date().toISOString();
  await db.updateTable('api_keys').set({ delete_time: now, update_time: now }).where('key_id', '=', keyId).execute();
  return now;
}

/**
 * A new current secret; the previous live secrets stop at `now + graceSeconds` (or earlier, if
 * their own grace already ends sooner).
 */
export async function rotateApiKeySecret(db: Db, pepper: string | undefined, keyId: string, graceSeconds: number): Promise<{ secret: string; hint: string; previousExpireTime: string }> {
  const now = new Date();
  const previousExpireTime = new Date(now.getTime() + graceSeconds * 1000).toISOString();
  await db
    .updateTable('api_key_secrets')
    .set({ expire_time: previousExpireTime })
    .where('key_id', '=', keyId)
    .where((eb) => eb.or([eb('expire_time', 'is', null), eb('expire_time', '>', previousExpireTime)]))
    .execute();
  const created = await insertSecret(db, keyId, pepper, now.toISOString());
  await db.updateTable('api_keys').set({ hint: created.hint, update_time: now.toISOString() }).where('key_id', '=', keyId).execute();
  return { ...created, previousExpireTime };
}
