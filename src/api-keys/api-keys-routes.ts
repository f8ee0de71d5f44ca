import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { accountAuth, auditActor, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';
import { PageQuery } from '../shared/pagination.ts';
import { ProjectParams } from '../projects/projects-schemas.ts';
import {
  ApiKey,
  ApiKeyList,
  ApiKeyParams,
  CreateApiKeyBody,
  CreatedApiKey,
  RotateApiKeyBody,
  RotatedApiKey,
  UpdateApiKeyBody,
} from './api-keys-schemas.ts';
import { toApiKey, type ApiKeysRepository } from './api-keys-repository.ts';

const ListQuery = Type.Composite(
  [PageQuery, Type.Object({ showDeleted: Type.Optional(Type.Boolean({ description: 'Include revoked keys.' })) })],
  {
    additionalProperties: false,
  },
);

const common = { tags: ['api-keys'], security: ACCOUNT_TOKEN_SECURITY };

/** Only the route schema validates the body; the one rule it cannot express is "in the future". */
function futureTime(value: string | undefined | null): void {
  if (value && Date.parse(value) <= Date.now()) {
    throw new AppError('INVALID_ARGUMENT', `Invalid value at 'expireTime': ${value} is not in the future.`, {
      fieldViolations: [{ field: 'expireTime', description: 'Must be in the future.' }],
    });
  }
}

/** API keys (API.md §2): the secret is returned at creation and rotation only. */
export const apiKeysRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string; apiKeys: ApiKeysRepository }> = async (
  app,
  { db, pepper, apiKeys },
) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.addHook('preValidation', emptyBodyAsObject);

  app.post<{ Params: ProjectParams; Body: CreateApiKeyBody }>(
    '/api/projects/:project/api-keys',
    {
      schema: {
        ...common,
        summary: 'Create an API key',
        description:
          'Returns `keyString` once. Without `restrictions.services` the key may call the apis enabled on the project now, never ones enabled later.',
        params: ProjectParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const body = request.body ?? {};
      futureTime(body.expireTime);
      const { row, secret } = await apiKeys.create(auditActor(principal), project.projectId, body);
      return reply.code(201).send({ ...toApiKey(row), keyString: secret });
    },
  );

  app.get<{ Params: ProjectParams; Querystring: Static<typeof ListQuery> }>(
    '/api/projects/:project/api-keys',
    {
      schema: {
        ...common,
        summary: 'List API keys (never with secrets)',
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: ApiKeyList },
      },
    },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      const { items, nextPageToken } = await apiKeys.list(project.projectId, request.query);
      return { apiKeys: items.map((r) => toApiKey(r)), ...(nextPageToken ? { nextPageToken } : {}) };
    },
  );

  app.get<{ Params: ApiKeyParams }>(
    '/api/projects/:project/api-keys/:keyId',
    { schema: { ...common, summary: 'Get an API key (never with its secret)', params: ApiKeyParams, response: { 200: ApiKey } } },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      return toApiKey(await apiKeys.get(project.projectId, request.params.keyId));
    },
  );

  app.patch<{ Params: ApiKeyParams; Body: Static<typeof UpdateApiKeyBody> }>(
    '/api/projects/:project/api-keys/:keyId',
    {
      schema: {
        ...common,
        summary: 'Update an API key',
        description:
          '`restrictions`, when sent, replaces the stored restrictions; without `restrictions.services` the current services are kept.',
        params: ApiKeyParams,
        body: UpdateApiKeyBody,
        response: { 200: ApiKey },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const body = request.body ?? {};
      futureTime(body.expireTime);
      return toApiKey(await apiKeys.update(auditActor(principal), project.projectId, request.params.keyId, body));
    },
  );

  app.delete<{ Params: ApiKeyParams }>(
    '/api/projects/:project/api-keys/:keyId',
    {
      schema: {
        ...common,
        summary: 'Revoke an API key (refused from the next request on)',
        params: ApiKeyParams,
        response: { 200: ApiKey },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project);
      return toApiKey(await apiKeys.revoke(auditActor(principal), project.projectId, request.params.keyId));
    },
  );

  // `:rotate` is Google's custom-method syntax; `::` is a literal colon in Fastify paths, and the
  // regex stops `keyId` before it (https://fastify.dev/docs/latest/Reference/Routes/#url-building).
  app.post<{ Params: ApiKeyParams; Body: Static<typeof RotateApiKeyBody> }>(
    '/api/projects/:project/api-keys/:keyId(^[A-Za-z0-9_-]+)::rotate',
    {
      schema: {
        ...common,
        summary: 'Rotate an API key',
        description: 'Issues a new secret (returned once); the previous one keeps working for `graceSeconds`.',
        params: ApiKeyParams,
        body: RotateApiKeyBody,
        response: { 200: RotatedApiKey },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
      const rotated = await apiKeys.rotate(auditActor(principal), project.projectId, request.params.keyId, request.body?.graceSeconds ?? 0);
      return { ...toApiKey(rotated.row), keyString: rotated.secret, previousKeyExpireTime: rotated.previousExpireTime };
    },
  );
};
