import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { accountAuth, auditActor, requireOwnAccount, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from './load-owned-project.ts';
import { AccountParams } from '../accounts/accounts-schemas.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';
import { PageQuery } from '../shared/pagination.ts';
import { CreateProjectBody, Project, ProjectList, ProjectParams, UpdateProjectBody } from './projects-schemas.ts';
import { toProject, type ProjectsRepository } from './projects-repository.ts';

const ListQuery = Type.Composite(
  [PageQuery, Type.Object({ showDeleted: Type.Optional(Type.Boolean({ description: 'Include DELETE_REQUESTED projects.' })) })],
  {
    additionalProperties: false,
  },
);

const common = { tags: ['projects'], security: ACCOUNT_TOKEN_SECURITY };

/** Projects (API.md §1–2): create, list, get, patch, soft delete. The repository audits each mutation. */
export const projectsRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string; projects: ProjectsRepository }> = async (
  app,
  { db, pepper, projects },
) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.addHook('preValidation', emptyBodyAsObject);

  app.post<{ Params: AccountParams; Body: CreateProjectBody }>(
    '/api/accounts/:account/projects',
    { schema: { ...common, summary: 'Create a project', params: AccountParams, body: CreateProjectBody, response: { 201: Project } } },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      const row = await projects.create(auditActor(principal), {
        projectId: request.body?.projectId,
        displayName: request.body?.displayName,
      });
      return reply.code(201).send(toProject(row));
    },
  );

  app.get<{ Params: AccountParams; Querystring: Static<typeof ListQuery> }>(
    '/api/accounts/:account/projects',
    { schema: { ...common, summary: 'List projects', params: AccountParams, querystring: ListQuery, response: { 200: ProjectList } } },
    async (request) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      const { items, nextPageToken } = await projects.list(principal.accountId, request.query);
      return { projects: items.map(toProject), ...(nextPageToken ? { nextPageToken } : {}) };
    },
  );

  app.get<{ Params: ProjectParams }>(
    '/api/projects/:project',
    { schema: { ...common, summary: 'Get a project', params: ProjectParams, response: { 200: Project } } },
    async (request) => loadOwnedProject(db, requirePrincipal(request), request.params.project),
  );

  app.patch<{ Params: ProjectParams; Body: Static<typeof UpdateProjectBody> }>(
    '/api/projects/:project',
    { schema: { ...common, summary: 'Update a project', params: ProjectParams, body: UpdateProjectBody, response: { 200: Project } } },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      return toProject(await projects.update(auditActor(principal), project.projectId, request.body ?? {}));
    },
  );

  app.delete<{ Params: ProjectParams }>(
    '/api/projects/:project',
    {
      schema: {
        ...common,
        summary: 'Delete a project',
        description: 'Moves the project to DELETE_REQUESTED: its keys stop working on the next request. The id is never reused.',
        params: ProjectParams,
        response: { 200: Project },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project);
      return toProject(await projects.remove(auditActor(principal), project.projectId));
    },
  );
};
