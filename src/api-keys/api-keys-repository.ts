import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { ApiKeysTable } from './api-keys-tables.ts';
import type { ApiKey, CreateApiKeyBody, KeyRestrictions, UpdateApiKeyBody } from './api-keys-schemas.ts';
import { normalizeRestrictions } from './key-restrictions.ts';
import { AppError } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { ProjectApisRepository } from '../projects/project-apis-repository.ts';
import type { KeyCacheInvalidation } from '../shared/key-cache-invalidation.ts';
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

export interface ApiKeysRepositoryDeps {
  /** `config.secretPepper`: secrets are stored as HMAC-SHA-256 under it. */
  pepper?: string;
  /** Without `restrictions.services` a new key may call the apis enabled on its project now. */
  projectApis: Pick<ProjectApisRepository, 'enabledApis'>;
  /** Told after a key's secret, restrictions, expiry or state changed (`src/shared/key-cache-invalidation.ts`). */
  keyCache?: KeyCacheInvalidation;
}

const iso = (value: string): string => new Date(value).toISOString();

/**
 * API keys of a project. Every call takes the `projectId` the caller resolved from the principal
 * (`loadOwnedProject`): a key of another project is 404. Each mutation writes its audit row in its
 * own transaction and, once committed, tells `deps.keyCache` (creating a key needs no invalidation:
 * its secret is new, so no cache can hold it, not even as unknown).
 */
export function createApiKeysRepository(db: Kysely<Database>, deps: ApiKeysRepositoryDeps) {
  const { pepper } = deps;
  const find = (trx: Db, projectId: string, keyId: string): Promise<ApiKeyRow | undefined> =>
    trx.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).where('project_id', '=', projectId).executeTakeFirst();

  async function owned(trx: Db, projectId: string, keyId: string): Promise<ApiKeyRow> {
    const row = await find(trx, projectId, keyId);
    if (!row) throw new AppError('NOT_FOUND', `API key "${keyId}" not found in project ${projectId}.`);
    return row;
  }

  async function insertSecret(trx: Db, keyId: string, now: string): Promise<{ secret: string; hint: string }> {
    const { secret, hint } = generateSecret('api_key');
    await trx
      .insertInto('api_key_secrets')
      .values({ secret_hash: hashSecret(secret, pepper), key_id: keyId, hint, create_time: now, expire_time: null })
      .execute();
    return { secret, hint };
  }

  return {
    /** The key's row, or 404 NOT_FOUND when it is not a key of `projectId`. */
    get: (projectId: string, keyId: string) => owned(db, projectId, keyId),

    async list(
      projectId: string,
      opts: { pageSize?: number; pageToken?: string; showDeleted?: boolean },
    ): Promise<{ items: ApiKeyRow[]; nextPageToken?: string }> {
      const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
      const after = decodePageToken(opts.pageToken);
      let q = db.selectFrom('api_keys').selectAll().where('project_id', '=', projectId);
      if (!opts.showDeleted) q = q.where('delete_time', 'is', null);
      if (after) q = q.where('key_id', '>', after);
      const rows = await q
        .orderBy('key_id')
        .limit(pageSize + 1)
        .execute();
      return toPage(rows, pageSize, (r) => r.key_id);
    },

    /** A new key and its first secret (returned here only). `expireTime` was checked to be in the future. */
    async create(actor: Actor, projectId: string, input: CreateApiKeyBody): Promise<{ row: ApiKeyRow; secret: string }> {
      const restrictions = normalizeRestrictions(
        input.restrictions as Partial<KeyRestrictions> | undefined,
        await deps.projectApis.enabledApis(projectId),
      );
      const now = new Date().toISOString();
      const keyId = newId('k');
      const { secret, hint } = generateSecret('api_key');
      const row: ApiKeyRow = {
        key_id: keyId,
        project_id: projectId,
        display_name: input.displayName ?? '',
        restrictions: JSON.stringify(restrictions),
        hint,
        create_time: now,
        update_time: now,
        expire_time: input.expireTime ? iso(input.expireTime) : null,
        delete_time: null,
        last_used_time: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('api_keys').values(row).execute();
        await trx
          .insertInto('api_key_secrets')
          .values({ secret_hash: hashSecret(secret, pepper), key_id: keyId, hint, create_time: now, expire_time: null })
          .execute();
        await recordAudit(trx, {
          ...actor,
          action: 'api_key.create',
          resourceType: 'api_key',
          resourceId: keyId,
          projectId,
          details: { hint, services: restrictions.services, servicesDefaulted: input.restrictions?.services === undefined },
        });
      });
      return { row, secret };
    },

    /**
     * Fields present replace the stored ones; `restrictions` without `services` keeps the current
     * services. A revoked key is 400 FAILED_PRECONDITION. The audit row names the fields sent.
     */
    async update(actor: Actor, projectId: string, keyId: string, changes: UpdateApiKeyBody): Promise<ApiKeyRow> {
      const updated = await db.transaction().execute(async (trx) => {
        const row = await owned(trx, projectId, keyId);
        if (row.delete_time) throw new AppError('FAILED_PRECONDITION', `API key "${row.key_id}" is revoked and can no longer be changed.`);
        const current = JSON.parse(row.restrictions) as KeyRestrictions;
        await trx
          .updateTable('api_keys')
          .set({
            ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
            ...(changes.restrictions !== undefined
              ? { restrictions: JSON.stringify(normalizeRestrictions(changes.restrictions as Partial<KeyRestrictions>, current.services)) }
              : {}),
            ...(changes.expireTime !== undefined ? { expire_time: changes.expireTime === null ? null : iso(changes.expireTime) } : {}),
            update_time: new Date().toISOString(),
          })
          .where('key_id', '=', keyId)
          .execute();
        await recordAudit(trx, {
          ...actor,
          action: 'api_key.update',
          resourceType: 'api_key',
          resourceId: keyId,
          projectId,
          details: { fields: Object.keys(changes) },
        });
        return (await find(trx, projectId, keyId))!;
      });
      deps.keyCache?.invalidateKey(keyId);
      return updated;
    },

    /** Refused from the next request on. Revoking a revoked key changes nothing (no audit row). */
    async revoke(actor: Actor, projectId: string, keyId: string): Promise<ApiKeyRow> {
      const { row, changed } = await db.transaction().execute(async (trx) => {
        const current = await owned(trx, projectId, keyId);
        if (current.delete_time) return { row: current, changed: false };
        const now = new Date().toISOString();
        await trx.updateTable('api_keys').set({ delete_time: now, update_time: now }).where('key_id', '=', keyId).execute();
        await recordAudit(trx, { ...actor, action: 'api_key.revoke', resourceType: 'api_key', resourceId: keyId, projectId });
        return { row: (await find(trx, projectId, keyId))!, changed: true };
      });
      if (changed) deps.keyCache?.invalidateKey(keyId);
      return row;
    },

    /**
     * A new current secret (returned here only); the previous live secrets stop at
     * `now + graceSeconds` (or earlier, if their own grace already ends sooner). A revoked key is
     * 400 FAILED_PRECONDITION.
     */
    async rotate(
      actor: Actor,
      projectId: string,
      keyId: string,
      graceSeconds: number,
    ): Promise<{ row: ApiKeyRow; secret: string; previousExpireTime: string }> {
      const rotated = await db.transaction().execute(async (trx) => {
        const row = await owned(trx, projectId, keyId);
        if (row.delete_time) throw new AppError('FAILED_PRECONDITION', `API key "${row.key_id}" is revoked; create a new key instead.`);
        const now = new Date();
        const previousExpireTime = new Date(now.getTime() + graceSeconds * 1000).toISOString();
        await trx
          .updateTable('api_key_secrets')
          .set({ expire_time: previousExpireTime })
          .where('key_id', '=', keyId)
          .where((eb) => eb.or([eb('expire_time', 'is', null), eb('expire_time', '>', previousExpireTime)]))
          .execute();
        const created = await insertSecret(trx, keyId, now.toISOString());
        await trx.updateTable('api_keys').set({ hint: created.hint, update_time: now.toISOString() }).where('key_id', '=', keyId).execute();
        await recordAudit(trx, {
          ...actor,
          action: 'api_key.rotate',
          resourceType: 'api_key',
          resourceId: keyId,
          projectId,
          details: { hint: created.hint, graceSeconds },
        });
        return { row: (await find(trx, projectId, keyId))!, secret: created.secret, previousExpireTime };
      });
      deps.keyCache?.invalidateKey(keyId);
      return rotated;
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
