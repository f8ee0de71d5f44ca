import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import type { Principal } from '../accounts/account-auth.ts';
import { createProjectsRepository, toProject } from './projects-repository.ts';
import type { Project } from './projects-schemas.ts';

/**
 * The principal's project, or 404 NOT_FOUND when absent or another account's (tenant isolation).
 * With `requireActive`, a DELETE_REQUESTED project is refused with 400 FAILED_PRECONDITION.
 */
export async function loadOwnedProject(
  db: Kysely<Database>,
  principal: Principal,
  projectId: string,
  opts: { requireActive?: boolean } = {},
): Promise<Project> {
  const row = await createProjectsRepository(db).find(projectId);
  if (!row || row.account_id !== principal.accountId) {
    throw new AppError('NOT_FOUND', `Project "${projectId}" not found.`);
  }
  if (opts.requireActive && row.state !== 'ACTIVE') {
    throw new AppError('FAILED_PRECONDITION', `Project "${projectId}" is ${row.state}; it can no longer be changed.`, {
      metadata: { project: projectId, state: row.state },
    });
  }
  return toProject(row);
}
