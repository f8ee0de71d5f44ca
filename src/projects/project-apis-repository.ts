import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { ProjectApisTable } from './projects-tables.ts';
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

export async function findProjectApi(db: Db, projectId: string, api: string): Promise<ProjectApiRow | undefined> {
  return db.selectFrom('project_apis').selectAll().where('project_id', '=', projectId).where('api', '=', api).executeTakeFirst();
}

/** Every catalog api with its state on the project (never-enabled ones are DISABLED). */
export async function listProjectApis(db: Db, projectId: string, defaultRpm: number): Promise<ProjectApi[]> {
  const rows = await db.selectFrom('project_apis').selectAll().where('project_id', '=', projectId).execute();
  return API_CATALOG.map((a) => toProjectApi(projectId, a.api, rows.find((r) => r.api === a.api), defaultRpm));
}

/** `isApiEnabled` for many: the apis ENABLED on the project right now. */
export async function enabledApis(db: Db, projectId: string): Promise<ApiName[]> {
  const rows = await db.selectFrom('project_apis').select('api').where('project_id', '=', projectId).where('state', '=', 'ENABLED').execute();
  return rows.map((r) => r.api as ApiName);
}

export async function isApiEnabled(db: Db, projectId: string, api: string): Promise<boolean> {
  return (await findProjectApi(db, projectId, api))?.state === 'ENABLED';
}

/** Returns the row after the change; `changed` is false when the api was already in that state. */
export async function setProjectApiState(
  db: Db,
  projectId: string,
  api: string,
  state: 'ENABLED' | 'DISABLED',
  defaultRpm: number,
): Promise<{ row: ProjectApiRow | undefined; changed: boolean }> {
  const existing = await findProjectApi(db, projectId, api);
  const now = new Date().toISOString();
  if (!existing) {
    if (state === 'DISABLED') return { row: undefined, changed: false };
    const row = { project_id: projectId, api, state, requests_per_minute: defaultRpm, create_time: now, update_time: now };
    // Two concurrent enables: the second inserts nothing and reports the row the first one wrote.
    const inserted = await db.insertInto('project_apis').values(row).onConflict((oc) => oc.columns(['project_id', 'api']).doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 1n) === 0) return { row: await findProjectApi(db, projectId, api), changed: false };
    return { row, changed: true };
  }
  if (existing.state === state) return { row: existing, changed: false };
  await db.updateTable('project_apis').set({ state, update_time: now }).where('project_id', '=', projectId).where('api', '=', api).execute();
  return { row: { ...existing, state, update_time: now }, changed: true };
}

export async function setProjectApiQuota(db: Db, projectId: string, api: string, requestsPerMinute: number): Promise<void> {
  await db
    .updateTable('project_apis')
    .set({ requests_per_minute: requestsPerMinute, update_time: new Date().toISOString() })
    .where('project_id', '=', projectId)
    .where('api', '=', api)
    .execute();
}
