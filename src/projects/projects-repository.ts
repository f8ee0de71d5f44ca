import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { ProjectsTable } from './projects-tables.ts';
import type { Project } from './projects-schemas.ts';
import { AppError } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { isUniqueViolation } from '../shared/unique-violation.ts';
import type { KeyCacheInvalidation } from '../shared/key-cache-invalidation.ts';
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

export interface ProjectsRepositoryDeps {
  /** Told after a project is deleted: its keys stop working (`src/shared/key-cache-invalidation.ts`). */
  keyCache?: KeyCacheInvalidation;
}

/**
 * Projects. Each mutation writes its audit row in its own transaction and, once committed, tells
 * `deps.keyCache` when it changed what the key verifier caches. `actor.accountId` owns what it creates.
 */
export function createProjectsRepository(db: Kysely<Database>, deps: ProjectsRepositoryDeps = {}) {
  const find = (trx: Db, projectId: string): Promise<ProjectRow | undefined> =>
    trx.selectFrom('projects').selectAll().where('project_id', '=', projectId).executeTakeFirst();

  return {
    find: (projectId: string) => find(db, projectId),

    /** A new ACTIVE project; without `projectId` one is generated, without `displayName` it is the id. */
    async create(actor: Actor, input: { projectId?: string; displayName?: string }): Promise<ProjectRow> {
      const projectId = input.projectId ?? generateProjectId();
      const now = new Date().toISOString();
      const row: ProjectRow = {
        project_id: projectId,
        account_id: actor.accountId,
        display_name: input.displayName ?? projectId,
        state: 'ACTIVE',
        create_time: now,
        update_time: now,
        delete_time: null,
      };
      try {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('projects').values(row).execute();
          await recordAudit(trx, {
            ...actor,
            action: 'project.create',
            resourceType: 'project',
            resourceId: projectId,
            projectId,
            details: { displayName: row.display_name },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw new AppError('ALREADY_EXISTS', `Project id "${projectId}" is already taken; project ids are globally unique.`, {
            fieldViolations: [{ field: 'projectId', description: 'Already taken.' }],
          });
        }
        throw err;
      }
      return row;
    },

    async list(
      accountId: string,
      opts: { pageSize?: number; pageToken?: string; showDeleted?: boolean },
    ): Promise<{ items: ProjectRow[]; nextPageToken?: string }> {
      const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
      const after = decodePageToken(opts.pageToken);
      let q = db.selectFrom('projects').selectAll().where('account_id', '=', accountId);
      if (!opts.showDeleted) q = q.where('state', '=', 'ACTIVE');
      if (after) q = q.where('project_id', '>', after);
      const rows = await q
        .orderBy('project_id')
        .limit(pageSize + 1)
        .execute();
      return toPage(rows, pageSize, (r) => r.project_id);
    },

    /** The audit row names the fields sent (`Object.keys(changes)`). */
    async update(actor: Actor, projectId: string, changes: { displayName?: string }): Promise<ProjectRow> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('projects')
          .set({
            ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
            update_time: new Date().toISOString(),
          })
          .where('project_id', '=', projectId)
          .execute();
        await recordAudit(trx, {
          ...actor,
          action: 'project.update',
          resourceType: 'project',
          resourceId: projectId,
          projectId,
          details: { fields: Object.keys(changes) },
        });
        return (await find(trx, projectId))!;
      });
    },

    /**
     * Soft delete: the row stays (ids are never reused) and every key of the project stops working.
     * Deleting a project that is no longer ACTIVE changes nothing (no audit row).
     */
    async remove(actor: Actor, projectId: string): Promise<ProjectRow> {
      const { row, changed } = await db.transaction().execute(async (trx) => {
        const current = (await find(trx, projectId))!;
        if (current.state !== 'ACTIVE') return { row: current, changed: false };
        const now = new Date().toISOString();
        await trx
          .updateTable('projects')
          .set({ state: 'DELETE_REQUESTED', delete_time: now, update_time: now })
          .where('project_id', '=', projectId)
          .execute();
        await recordAudit(trx, { ...actor, action: 'project.delete', resourceType: 'project', resourceId: projectId, projectId });
        return { row: (await find(trx, projectId))!, changed: true };
      });
      if (changed) deps.keyCache?.invalidateProject(projectId);
      return row;
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
