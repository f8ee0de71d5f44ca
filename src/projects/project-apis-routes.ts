import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { accountAuth, auditActor, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from './load-owned-project.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';
import { API_CATALOG } from './api-catalog.ts';
import { PageQuery, decodePageToken, toPage } from '../shared/pagination.ts';
import { ProjectParams } from './projects-schemas.ts';
import { ApiParams, Catalog, EnableBody, ProjectApi, ProjectApiList, QuotaBody } from './project-apis-schemas.ts';
import type { ProjectApisRepository } from './project-apis-repository.ts';

const common = { tags: ['apis'], security: ACCOUNT_TOKEN_SECURITY };

/** The api catalog and enabling/disabling apis per project (API.md §2). */
export const projectApisRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string; projectApis: ProjectApisRepository }> = async (
  app,
  { db, pepper, projectApis },
) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.addHook('preValidation', emptyBodyAsObject);

  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/api/apis',
    { schema: { ...common, summary: 'The api catalog', querystring: PageQuery, response: { 200: Catalog } } },
    async (request) => {
      const after = decodePageToken(request.query.pageToken);
      const all = API_CATALOG.map((a) => ({ ...a }));
      const rest = after ? all.slice(all.findIndex((a) => a.api === after) + 1) : all;
      const { items, nextPageToken } = toPage(rest, request.query.pageSize ?? 50, (a) => a.api);
      return { apis: items, ...(nextPageToken ? { nextPageToken } : {}) };
    },
  );

  app.post<{ Params: ProjectParams; Body: Static<typeof EnableBody> }>(
    '/api/projects/:project/apis',
    {
      schema: { ...common, summary: 'Enable an api (idempotent)', params: ProjectParams, body: EnableBody, response: { 200: ProjectApi } },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      return projectApis.setState(auditActor(principal), project.projectId, request.body.api, 'ENABLED');
    },
  );

  app.get<{ Params: ProjectParams; Querystring: Static<typeof PageQuery> }>(
    '/api/projects/:project/apis',
    {
      schema: {
        ...common,
        summary: "List the catalog's apis with their state on the project",
        params: ProjectParams,
        querystring: PageQuery,
        response: { 200: ProjectApiList },
      },
    },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      const after = decodePageToken(request.query.pageToken);
      const catalogOrder = await projectApis.list(project.projectId);
      const all = after ? catalogOrder.slice(catalogOrder.findIndex((a) => a.api === after) + 1) : catalogOrder;
      const { items, nextPageToken } = toPage(all, request.query.pageSize ?? 50, (a) => a.api);
      return { apis: items, ...(nextPageToken ? { nextPageToken } : {}) };
    },
  );

  app.get<{ Params: ApiParams }>(
    '/api/projects/:project/apis/:api',
    { schema: { ...common, summary: 'Get an api of the project', params: ApiParams, response: { 200: ProjectApi } } },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      return projectApis.get(project.projectId, request.params.api);
    },
  );

  app.patch<{ Params: ApiParams; Body: Static<typeof QuotaBody> }>(
    '/api/projects/:project/apis/:api',
    {
      schema: {
        ...common,
        summary: "Set the api's rate limit for the project",
        params: ApiParams,
        body: QuotaBody,
        response: { 200: ProjectApi },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      return projectApis.setQuota(auditActor(principal), project.projectId, request.params.api, request.body.quota.requestsPerMinute);
    },
  );

  app.delete<{ Params: ApiParams }>(
    '/api/projects/:project/apis/:api',
    {
      schema: {
        ...common,
        summary: 'Disable an api (idempotent); its keys stop working for it at once',
        params: ApiParams,
        response: { 200: ProjectApi },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project);
      return projectApis.setState(auditActor(principal), project.projectId, request.params.api, 'DISABLED');
    },
  );
};
