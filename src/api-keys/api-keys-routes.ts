import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { accountAuth, actorOf, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { PageQuery } from '../shared/pagination.ts';
import { ProjectParams } from '../projects/projects-schemas.ts';
import { enabledApis } from '../projects/project-apis-repository.ts';
import {
  ApiKey, ApiKeyList, ApiKeyParams, CreateApiKeyBody, CreatedApiKey, RotateApiKeyBody, RotatedApiKey, UpdateApiKeyBody, type KeyRestrictions,
} from './api-keys-schemas.ts';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKeyRow, rotateApiKeySecret, toApiKey, updateApiKeyRow } from './api-keys-repository.ts';
import { normalizeRestrictions } from './key-restrictions.ts';

const ListQuery = Type.Composite([PageQuery, Type.Object({ showDeleted: Type.Optional(Type.Boolean({ description: 'Include revoked keys.' })) })], {
  additionalProperties: false,
});

const common = { tags: ['api-keys'], security: ACCOUNT_TOKEN_SECURITY };

/** Only the route schema validates the body; the one rule it cannot express is "in the future". */
function futureTime(value: string | undefined | null): void {
  if (value && Date.parse(value) <= Date.now()) {
    throw new AppError('INVALID_ARGUMENT', `Invalid value at 'expireTime': ${value} is not in the future.`, {
      fieldViolations: [{ field: 'expireTime', description: 'Must be in the future.' }],
    });
  }
}

const iso = (value: string): string => new Date(value).toISOString();

/** API keys (API.md §2): the secret is returned at creation and rotation only. */
export const apiKeysRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string }> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.addHook('preValidation', emptyBodyAsObject);

  async function ownedKey(projectId: string, keyId: string) {
    const row = await findApiKey(db, projectId, keyId);
    if (!row) throw new AppError('NOT_FOUND', `API key "${keyId}" not found in project ${projectId}.`);
    return row;
  }

  app.post<{ Params: ProjectParams; Body: CreateApiKeyBody }>(
    '/api/projects/:project/api-keys',
    {
      schema: {
        ...common,
        summary: 'Create an API key',
        description: 'Returns `keyString` once. Without `restrictions.services` the key may call the apis enabled on the project now, never ones enabled later.',
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
      const { row, secret } = await db.transaction().execute(async (trx) => {
        const restrictions = normalizeRestrictions(body.restrictions, await enabledApis(trx, project.projectId));
        const created = await insertApiKey(trx, pepper, {
          projectId: project.projectId,
          displayName: body.displayName ?? '',
          restrictions,
          expireTime: body.expireTime ? iso(body.expireTime) : undefined,
        });
        await recordAudit(trx, {
          accountId: principal.accountId, actor: actorOf(principal), action: 'api_key.create', resourceType: 'api_key',
          resourceId: created.row.key_id, projectId: project.projectId,
          details: { hint: created.row.hint, services: restrictions.services, servicesDefaulted: body.restrictions?.services === undefined },
        });
        return created;
      });
      return reply.code(201).send({ ...toApiKey(row), keyString: secret });
    },
  );

  app.get<{ Params: ProjectParams; Querystring: Static<typeof ListQuery> }>(
    '/api/projects/:project/api-keys',
    { schema: { ...common, summary: 'List API keys (never with secrets)', params: ProjectParams, querystring: ListQuery, response: { 200: ApiKeyList } } },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      const { items, nextPageToken } = await listApiKeys(db, project.projectId, request.query);
      return { apiKeys: items.map((r) => toApiKey(r)), ...(nextPageToken ? { nextPageToken } : {}) };
    },
  );

  app.get<{ Params: ApiKeyParams }>(
    '/api/projects/:project/api-keys/:keyId',
    { schema: { ...common, summary: 'Get an API key (never with its secret)', params: ApiKeyParams, response: { 200: ApiKey } } },
    async (request) => {
      const project = await loadOwnedProject(db, requirePrincipal(request), request.params.project);
      return toApiKey(await ownedKey(project.projectId, request.params.keyId));
    },
  );

  app.patch<{ Params: ApiKeyParams; Body: Static<typeof UpdateApiKeyBody> }>(
    '/api/projects/:project/api-keys/:keyId',
    {
      schema: {
        ...common,
        summary: 'Update an API key',
        description: '`restrictions`, when sent, replaces the stored restrictions; without `restrictions.services` the current services are kept.',
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
      const row = await ownedKey(project.projectId, request.params.keyId);
      if (row.delete_time) throw new AppError('FAILED_PRECONDITION', `API key "${row.key_id}" is revoked and can no longer be changed.`);
      const current = JSON.parse(row.restrictions) as KeyRestrictions;
      await db.transaction().execute(async (trx) => {
        await updateApiKeyRow(trx, row.key_id, {
          displayName: body.displayName,
          restrictions: body.restrictions ? normalizeRestrictions(body.restrictions, current.services) : undefined,
          expireTime: body.expireTime === undefined ? undefined : body.expireTime === null ? null : iso(body.expireTime),
        });
        await recordAudit(trx, {
          accountId: principal.accountId, actor: actorOf(principal), action: 'api_key.update', resourceType: 'api_key',
          resourceId: row.key_id, projectId: project.projectId, details: { fields: Object.keys(body) },
        });
      });
      app.keyVerifier.invalidateKey(row.key_id);
      return toApiKey((await findApiKey(db, project.projectId, row.key_id))!);
    },
  );

  app.delete<{ Params: ApiKeyParams }>(
    '/api/projects/:project/api-keys/:keyId',
    { schema: { ...common, summary: 'Revoke an API key (refused from the next request on)', params: ApiKeyParams, response: { 200: ApiKey } } },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project);
      const row = await ownedKey(project.projectId, request.params.keyId);
      if (!row.delete_time) {
        await db.transaction().execute(async (trx) => {
          await revokeApiKeyRow(trx, row.key_id);
          await recordAudit(trx, {
            accountId: principal.accountId, actor: actorOf(principal), action: 'api_key.revoke', resourceType: 'api_key',
            resourceId: row.key_id, projectId: project.projectId,
          });
        });
        app.keyVerifier.invalidateKey(row.key_id);
      }
      return toApiKey((await findApiKey(db, project.projectId, row.key_id))!);
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
      const row = await ownedKey(project.projectId, request.params.keyId);
      if (row.delete_time) throw new AppError('FAILED_PRECONDITION', `API key "${row.key_id}" is revoked; create a new key instead.`);
      const graceSeconds = request.body?.graceSeconds ?? 0;
      const rotated = await db.transaction().execute(async (trx) => {
        const result = await rotateApiKeySecret(trx, pepper, row.key_id, graceSeconds);
        await recordAudit(trx, {
          accountId: principal.accountId, actor: actorOf(principal), action: 'api_key.rotate', resourceType: 'api_key',
          resourceId: row.key_id, projectId: project.projectId, details: { hint: result.hint, graceSeconds },
        });
        return result;
      });
      app.keyVerifier.invalidateKey(row.key_id);
      const updated = (await findApiKey(db, project.projectId, row.key_id))!;
      return { ...toApiKey(updated), keyString: rotated.secret, previousKeyExpireTime: rotated.previousExpireTime };
    },
  );
};
