import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { accountAuth, actorOf, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import { PageQuery } from '../shared/pagination.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';
import {
  ClientParams,
  OAuthClient,
  OAuthClientCreateBody,
  OAuthClientCreated,
  OAuthClientList,
  OAuthClientUpdateBody,
  ProjectParams,
} from './oauth-clients-schemas.ts';
import { createOAuthClientsRepository } from './oauth-clients-repository.ts';
import { clientSecretsRoutes } from './client-secrets-routes.ts';

export interface OAuthClientsRoutesOptions {
  db: Kysely<Database>;
  /** `config.secretPepper`: client secrets are stored as HMAC-SHA-256 under it. */
  pepper?: string;
}

const tags = ['oauth-clients'];
const security = ACCOUNT_TOKEN_SECURITY;

/**
 * `/api/projects/{project}/oauth-clients[/{clientId}[/secrets[/{secretId}]]]` (API.md §2), behind an
 * account token. Every lookup is scoped by a project the principal owns: another account's client is 404.
 */
export const oauthClientsRoutes: FastifyPluginAsync<OAuthClientsRoutesOptions> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  // `POST …/secrets` (every field optional) and an empty PATCH work without a body.
  app.addHook('preValidation', emptyBodyAsObject);
  const clients = createOAuthClientsRepository(db, { pepper });

  app.post<{ Params: ProjectParams; Body: OAuthClientCreateBody }>(
    '/api/projects/:project/oauth-clients',
    {
      schema: {
        tags,
        security,
        summary: 'Register an OAuth client',
        description:
          'A confidential client (tokenEndpointAuthMethod other than none) gets its first secret in `clientSecret`, shown this once.',
        params: ProjectParams,
        body: OAuthClientCreateBody,
        response: { 201: OAuthClientCreated },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const actor = { accountId: principal.accountId, actor: actorOf(principal) };
      const created = await clients.create(actor, project.projectId, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get<{ Params: ProjectParams; Querystring: PageQuery }>(
    '/api/projects/:project/oauth-clients',
    {
      schema: {
        tags,
        security,
        summary: 'List OAuth clients',
        params: ProjectParams,
        querystring: PageQuery,
        response: { 200: OAuthClientList },
      },
    },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      return clients.list(project.projectId, request.query);
    },
  );

  app.get<{ Params: ClientParams }>(
    '/api/projects/:project/oauth-clients/:clientId',
    { schema: { tags, security, summary: 'Get an OAuth client', params: ClientParams, response: { 200: OAuthClient } } },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      return clients.get(project.projectId, request.params.clientId);
    },
  );

  app.patch<{ Params: ClientParams; Body: OAuthClientUpdateBody }>(
    '/api/projects/:project/oauth-clients/:clientId',
    {
      schema: {
        tags,
        security,
        summary: 'Update an OAuth client',
        description: 'Fields present replace the stored ones (`null` clears an optional one); the result is validated as a whole.',
        params: ClientParams,
        body: OAuthClientUpdateBody,
        response: { 200: OAuthClient },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const actor = { accountId: principal.accountId, actor: actorOf(principal) };
      return clients.update(actor, project.projectId, request.params.clientId, request.body);
    },
  );

  app.delete<{ Params: ClientParams }>(
    '/api/projects/:project/oauth-clients/:clientId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete an OAuth client and its secrets',
        params: ClientParams,
        response: { 200: Type.Object({}, { description: 'Empty on success.' }) },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      await clients.remove({ accountId: principal.accountId, actor: actorOf(principal) }, project.projectId, request.params.clientId);
      return {};
    },
  );

  await app.register(clientSecretsRoutes, { db, pepper });
};
