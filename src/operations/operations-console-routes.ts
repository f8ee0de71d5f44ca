import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from '@sinclair/typebox';
import { accountAuth, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import type { Database } from '../db/tables.ts';
import { ProjectParams } from '../projects/projects-schemas.ts';
import { operationWithProgress } from './operation-json.ts';
import type { OperationsRepository } from './operations-repository.ts';
import type { ProjectOperationList } from './operations-schemas.ts';

export interface OperationsConsoleRoutesOptions {
  db: Kysely<Database>;
  pepper?: string;
  repo: OperationsRepository;
}

const ListQuery = Type.Object({
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  pageToken: Type.Optional(Type.String({ maxLength: 64, pattern: '^[a-z0-9]*$' })),
});

/**
 * `GET /api/projects/{project}/operations` behind an account token: the console's list of a
 * project's long-running operations (Google's Operation JSON with `pagesDone`/`totalPages`),
 * newest first. API keys list the same with `GET /v1/projects/{p}/operations`.
 */
export const operationsConsoleRoutes: FastifyPluginAsync<OperationsConsoleRoutesOptions> = async (app, { db, pepper, repo }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.get<{ Params: ProjectParams; Querystring: { pageSize?: number; pageToken?: string } }>(
    '/api/projects/:project/operations',
    {
      schema: {
        tags: ['vision'],
        security: ACCOUNT_TOKEN_SECURITY,
        summary: "A project's long-running operations, newest first",
        params: ProjectParams,
        querystring: ListQuery,
      },
    },
    async (request): Promise<ProjectOperationList> => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      const pageSize = request.query.pageSize ?? 50;
      const rows = await repo.list(project.projectId, pageSize + 1, request.query.pageToken || undefined);
      const page = rows.slice(0, pageSize);
      return {
        operations: page.map((row) => ({ ...operationWithProgress(row), kind: row.kind })),
        ...(rows.length > pageSize ? { nextPageToken: page[page.length - 1].operation_id } : {}),
      };
    },
  );
};
