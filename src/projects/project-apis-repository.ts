import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { ProjectApisTable } from './projects-tables.ts';
import { AppError } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { KeyCacheInvalidation } from '../shared/key-cache-invalidation.ts';
import { API_CATALOG, apiTitle, type ApiName } from './api-catalog.ts';
import type { ProjectApi } from './project-apis-schemas.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type ProjectApiRow = Selectable<ProjectApisTable>;

export function toProjectApi(projectId: string, api: string, row: ProjectApiRow | undefined, defaultRpm: number): ProjectApi {
  return {
    name: `projects/${projectId}/apis/${api}`,
    api,
    title: apiTitle(api),
    state: row?.state === 'ENABLED' ? 'ENABLED' : 'DISABLED',
    quota: { requestsPerMinute: row ? Number(row.requests_per_minute) : defaultRpm },
    ...(row ? { createTime: row.create_time, updateTime: row.update_time } : {}),
  };
}

export interface ProjectApisRepositoryDeps {
  /** The quota of an api enabled for the first time (`DEFAULT_REQUESTS_PER_MINUTE`), also shown for never-enabled ones. */
  defaultRequestsPerMinute: number;
  /** Told after an api's state or quota changed: the project's keys are re-read (`src/shared/key-cache-invalidation.ts`). */
  keyCache?: KeyCacheInvalidation;
}

/**
 * The apis enabled per project and their quotas. Each change writes its audit row in its own
 * transaction and, once committed, tells `deps.keyCache`.
 */
export function createProjectApisRepository(db: Kysely<Database>, deps: ProjectApisRepositoryDeps) {
  const defaultRpm = deps.defaultRequestsPerMinute;
  const find = (trx: Db, projectId: string, api: string): Promise<ProjectApiRow | undefined> =>
    trx.selectFrom('project_apis').selectAll().where('project_id', '=', projectId).where('api', '=', api).executeTakeFirst();

  /** Returns the row after the change; `changed` is false when the api was already in that state. */
  async function writeState(
    trx: Db,
    projectId: string,
    api: string,
    state: 'ENABLED' | 'DISABLED',
  ): Promise<{ row: ProjectApiRow | undefined; changed: boolean }> {
    const existing = await find(trx, projectId, api);
    const now = new Date().toISOString();
    if (!existing) {
      if (state === 'DISABLED') return { row: undefined, changed: false };
      const row = { project_id: projectId, api, state, requests_per_minute: defaultRpm, create_time: now, update_time: now };
      // Two concurrent enables: the second inserts nothing and reports the row the first one wrote.
      const inserted = await trx
        .insertInto('project_apis')
        .values(row)
        .onConflict((oc) => oc.columns(['project_id', 'api']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 1n) === 0) return { row: await find(trx, projectId, api), changed: false };
      return { row, changed: true };
    }
    if (existing.state === state) return { row: existing, changed: false };
    await trx
      .updateTable('project_apis')
      .set({ state, update_time: now })
      .where('project_id', '=', projectId)
      .where('api', '=', api)
      .execute();
    return { row: { ...existing, state, update_time: now }, changed: true };
  }

  return {
    find: (projectId: string, api: string) => find(db, projectId, api),

    /** The api as the wire shows it (a never-enabled one is DISABLED with the default quota). */
    async get(projectId: string, api: string): Promise<ProjectApi> {
      return toProjectApi(projectId, api, await find(db, projectId, api), defaultRpm);
    },

    /** Every catalog api with its state on the project (never-enabled ones are DISABLED). */
    async list(projectId: string): Promise<ProjectApi[]> {
      const rows = await db.selectFrom('project_apis').selectAll().where('project_id', '=', projectId).execute();
      return API_CATALOG.map((a) =>
        toProjectApi(
          projectId,
          a.api,
          rows.find((r) => r.api === a.api),
          defaultRpm,
        ),
      );
    },

    /** The apis ENABLED on the project right now. */
    async enabledApis(projectId: string): Promise<ApiName[]> {
      const rows = await db
        .selectFrom('project_apis')
        .select('api')
        .where('project_id', '=', projectId)
        .where('state', '=', 'ENABLED')
        .execute();
      return rows.map((r) => r.api as ApiName);
    },

    /** Enables or disables (idempotent: no change, no audit row, no invalidation). */
    async setState(actor: Actor, projectId: string, api: string, state: 'ENABLED' | 'DISABLED'): Promise<ProjectApi> {
      const result = await db.transaction().execute(async (trx) => {
        const changed = await writeState(trx, projectId, api, state);
        if (changed.changed) {
          await recordAudit(trx, {
            ...actor,
            action: state === 'ENABLED' ? 'api.enable' : 'api.disable',
            resourceType: 'api',
            resourceId: `${projectId}/${api}`,
            projectId,
            details: { api },
          });
        }
        return changed;
      });
      if (result.changed) deps.keyCache?.invalidateProject(projectId);
      return toProjectApi(projectId, api, result.row, defaultRpm);
    },

    /** The project's rate limit for an ENABLED api (else 400 FAILED_PRECONDITION). */
    async setQuota(actor: Actor, projectId: string, api: string, requestsPerMinute: number): Promise<ProjectApi> {
      const row = await db.transaction().execute(async (trx) => {
        const current = await find(trx, projectId, api);
        if (current?.state !== 'ENABLED') {
          throw new AppError(
            'FAILED_PRECONDITION',
            `The ${api} api is not enabled on project ${projectId}; enable it first with POST /api/projects/${projectId}/apis {"api":"${api}"}.`,
          );
        }
        await trx
          .updateTable('project_apis')
          .set({ requests_per_minute: requestsPerMinute, update_time: new Date().toISOString() })
          .where('project_id', '=', projectId)
          .where('api', '=', api)
          .execute();
        await recordAudit(trx, {
          ...actor,
          action: 'api.update_quota',
          resourceType: 'api',
          resourceId: `${projectId}/${api}`,
          projectId,
          details: { api, requestsPerMinute },
        });
        return find(trx, projectId, api);
      });
      deps.keyCache?.invalidateProject(projectId);
      return toProjectApi(projectId, api, row, defaultRpm);
    },
  };
}

export type ProjectApisRepository = ReturnType<typeof createProjectApisRepository>;
