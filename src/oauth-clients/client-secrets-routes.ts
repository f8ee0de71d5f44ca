import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { actorOf, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import { PageQuery } from '../shared/pagination.ts';
import {
  ClientParams,
  ClientSecret,
  ClientSecretCreateBody,
  ClientSecretCreated,
  ClientSecretList,
  MAX_ACTIVE_SECRETS,
  SecretParams,
} from './oauth-clients-schemas.ts';
import { createClientSecretsRepository } from './client-secrets-repository.ts';

const tags = ['oauth-clients'];
const security = ACCOUNT_TOKEN_SECURITY;

/**
 * A client's secrets. Registered inside `oauthClientsRoutes`, whose `accountAuth` hook covers these
 * routes too (requirePrincipal fails closed otherwise).
 */
export const clientSecretsRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string }> = async (app, { db, pepper }) => {
  const secrets = createClientSecretsRepository(db, { pepper });

  app.post<{ Params: ClientParams; Body: ClientSecretCreateBody }>(
    '/api/projects/:project/oauth-clients/:clientId/secrets',
    {
      schema: {
        tags,
        security,
        summary: 'Add a client secret (rotation)',
        description:
          `The secret is in \`clientSecret\`, shown this once; only its hash is kept. At most ${MAX_ACTIVE_SECRETS} active ` +
          'secrets per client, so old and new can overlap while clients roll over; public clients (none) have none.',
        params: ClientParams,
        body: ClientSecretCreateBody,
        response: { 201: ClientSecretCreated },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const actor = { accountId: principal.accountId, actor: actorOf(principal) };
      const created = await secrets.add(actor, project.projectId, request.params.clientId, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get<{ Params: ClientParams; Querystring: PageQuery }>(
    '/api/projects/:project/oauth-clients/:clientId/secrets',
    {
      schema: {
        tags,
        security,
        summary: 'List client secrets (hints only)',
        description: 'Every secret with its state: ACTIVE, EXPIRED (past expireTime) or REVOKED. Never the secret itself.',
        params: ClientParams,
        querystring: PageQuery,
        response: { 200: ClientSecretList },
      },
    },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      return secrets.list(project.projectId, request.params.clientId, request.query);
    },
  );

  app.delete<{ Params: SecretParams }>(
    '/api/projects/:project/oauth-clients/:clientId/secrets/:secretId',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a client secret',
        description: 'The secret stops working at once and stays listed as REVOKED. Revoking it again changes nothing.',
        params: SecretParams,
        response: { 200: ClientSecret },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const actor = { accountId: principal.accountId, actor: actorOf(principal) };
      return secrets.revoke(actor, project.projectId, request.params.clientId, request.params.secretId);
    },
  );
};
