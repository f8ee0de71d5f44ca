import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { accountAuth, actorOf, requireOwnAccount, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from './load-owned-project.ts';
import { AccountParams } from '../accounts/accounts-schemas.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { PageQuery } from '../shared/pagination.ts';
import {
  CreateProjectBody, Project, ProjectList, ProjectParams, UpdateProjectBody,
} from './projects-schemas.ts';
import {
  findProject, generateProjectId, insertProject, listProjects, markProjectDeleted, toProject, updateProjectRow,
} from './projects-repository.ts';

const ListQuery = Type.Composite([PageQuery, Type.Object({ showDeleted: Type.Optional(Type.Boolean({ description: 'Include DELETE_REQUESTED projects.' })) })], {
  additionalProperties: false,
});

const common = { tags: ['projects'], security: ACCOUNT_TOKEN_SECURITY };

/** Projects (API.md §1–2): create, list, get, patch, soft delete. Mutations are audited. */
export const projectsRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string }> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.addHook('preValidation', emptyBodyAsObject);

  app.post<{ Params: AccountParams; Body: CreateProjectBody }>(
    '/api/accounts/:account/projects',
    { schema: { ...common, summary: 'Create a project', params: AccountParams, body: CreateProjectBody, response: { 201: Project } } },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      const projectId = request.body?.projectId ?? generateProjectId();
      const row = await db.transaction().execute(async (trx) => {
        const created = await insertProject(trx, { accountId: principal.accountId, projectId, displayName: request.body?.displayName ?? projectId });
        await recordAudit(trx, {
          accountId: principal.accountId, actor: actorOf(principal), action: 'project.create', resourceType: 'project',
          resourceId: projectId, projectId, details: { displayName: created.display_name },
        });
        return created;
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
      const { items, nextPageToken } = await listProjects(db, principal.accountId, request.query);
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
      const changes = request.body ?? {};
      await db.transaction().execute(async (trx) => {
        await updateProjectRow(trx, project.projectId, changes);
        await recordAudit(trx, {
          accountId: principal.accountId, actor: actorOf(principal), action: 'project.update', resourceType: 'project',
          resourceId: project.projectId, projectId: project.projectId, details: { fields: Object.keys(changes) },
        });
      });
      return toProject((await findProject(db, project.projectId))!);
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
      if (project.state === 'ACTIVE') {
        await db.transaction().execute(async (trx) => {
          await markProjectDeleted(trx, project.projectId);
          await recordAudit(trx, {
            accountId: principal.accountId, actor: actorOf(principal), action: 'project.delete', resourceType: 'project',
            resourceId: project.projectId, projectId: project.projectId,
          });
        });
        app.keyVerifier.invalidateProject(project.projectId);
      }
      return toProject((await findProject(db, project.projectId))!);
    },
  );
};
