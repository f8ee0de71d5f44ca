import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { ProjectsTable } from './projects-tables.ts';
import type { Project } from './projects-schemas.ts';
import { AppError } from '../errors.ts';
import { isUniqueViolation } from '../shared/unique-violation.ts';
import { decodePageToken, toPage, DEFAULT_PAGE_SIZE } from '../shared/pagination.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type ProjectRow = Selectable<ProjectsTable>;

export function toProject(row: ProjectRow): Project {
  return {
    name: `projects/${row.project_id}`,
    projectId: row.project_id,
    displayName: row.display_name,
    state: row.state as Project['state'],
    createTime: row.create_time,
    updateTime: row.update_time,
    ...(row.delete_time ? { deleteTime: row.delete_time } : {}),
  };
}

/** `project-` + 10 random lowercase letters/digits: matches Google's rule, collisions are ~impossible. */
export function generateProjectId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(10);
  return `project-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export async function findProject(db: Db, projectId: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

export async function insertProject(db: Db, p: { accountId: string; projectId: string; displayName: string }): Promise<ProjectRow> {
  const now = new Date().toISOString();
  const row: ProjectRow = {
    project_id: p.projectId,
    account_id: p.accountId,
    display_name: p.displayName,
    state: 'ACTIVE',
    create_time: now,
    update_time: now,
    delete_time: null,
  };
  try {
    await db.insertInto('projects').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('ALREADY_EXISTS', `Project id "${p.projectId}" is already taken; project ids are globally unique.`, {
        fieldViolations: [{ field: 'projectId', description: 'Already taken.' }],
      });
    }
    throw err;
  }
  return row;
}

export async function listProjects(
  db: Db,
  accountId: string,
  opts: { pageSize?: number; pageToken?: string; showDeleted?: boolean },
): Promise<{ items: ProjectRow[]; nextPageToken?: string }> {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const after = decodePageToken(opts.pageToken);
  let q = db.selectFrom('projects').selectAll().where('account_id', '=', accountId);
  if (!opts.showDeleted) q = q.where('state', '=', 'ACTIVE');
  if (after) q = q.where('project_id', '>', after);
  const rows = await q.orderBy('project_id').limit(pageSize + 1).execute();
  return toPage(rows, pageSize, (r) => r.project_id);
}

export async function updateProjectRow(db: Db, projectId: string, changes: { displayName?: string }): Promise<void> {
  await db
    .updateTable('projects')
    .set({ ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}), update_time: new Date().toISOString() })
    .where('project_id', '=', projectId)
    .execute();
}

/** Soft delete: the row stays (ids are never reused) and every key of the project stops working. */
export async function markProjectDeleted(db: Db, projectId: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable('projects')
    .set({ state: 'DELETE_REQUESTED', delete_time: now, update_time: now })
    .where('project_id', '=', projectId)
    .execute();
}
