import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { newId } from '../credentials/new-id.ts';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { decodePageToken, toPage, DEFAULT_PAGE_SIZE, type PageQuery } from '../shared/pagination.ts';
import type { OAuthClientsTable } from './oauth-clients-tables.ts';
import type { OAuthClient, OAuthClientCreated } from './oauth-clients-schemas.ts';
import {
  assertValidClientMetadata,
  isConfidential,
  resolveClientMetadata,
  type ClientMetadata,
  type ClientMetadataInput,
} from './client-metadata.ts';
import { countActiveSecrets, insertClientSecret } from './client-secret-rows.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type OAuthClientRow = Selectable<OAuthClientsTable>;

function toMetadata(row: OAuthClientRow): ClientMetadata {
  return {
    clientName: row.client_name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    grantTypes: JSON.parse(row.grant_types) as ClientMetadata['grantTypes'],
    responseTypes: JSON.parse(row.response_types) as string[],
    tokenEndpointAuthMethod: row.token_endpoint_auth_method as ClientMetadata['tokenEndpointAuthMethod'],
    clientUri: row.client_uri,
    logoUri: row.logo_uri,
    tosUri: row.tos_uri,
    policyUri: row.policy_uri,
    scope: row.scope,
    contacts: JSON.parse(row.contacts) as string[],
  };
}

function toColumns(meta: ClientMetadata) {
  return {
    client_name: meta.clientName,
    redirect_uris: JSON.stringify(meta.redirectUris),
    grant_types: JSON.stringify(meta.grantTypes),
    response_types: JSON.stringify(meta.responseTypes),
    token_endpoint_auth_method: meta.tokenEndpointAuthMethod,
    client_uri: meta.clientUri,
    logo_uri: meta.logoUri,
    tos_uri: meta.tosUri,
    policy_uri: meta.policyUri,
    scope: meta.scope,
    contacts: JSON.stringify(meta.contacts),
  };
}

export function toOAuthClient(row: OAuthClientRow): OAuthClient {
  const meta = toMetadata(row);
  const optional = (['clientName', 'clientUri', 'logoUri', 'tosUri', 'policyUri', 'scope'] as const)
    .filter((k) => meta[k] !== null)
    .map((k) => [k, meta[k]]);
  return {
    clientId: row.client_id,
    projectId: row.project_id,
    name: `projects/${row.project_id}/oauthClients/${row.client_id}`,
    ...Object.fromEntries(optional),
    redirectUris: meta.redirectUris,
    grantTypes: meta.grantTypes,
    responseTypes: meta.responseTypes,
    tokenEndpointAuthMethod: meta.tokenEndpointAuthMethod,
    contacts: meta.contacts,
    clientIdIssuedAt: Math.floor(Date.parse(row.create_time) / 1000),
    createTime: row.create_time,
    updateTime: row.update_time,
  };
}

/** The client, only if it belongs to `projectId` (tenant isolation: any other answer is 404). */
async function findClientRow(db: Db, projectId: string, clientId: string): Promise<OAuthClientRow> {
  const row = await db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `OAuth client "${clientId}" not found.`);
  return row;
}

/**
 * OAuth clients of a project. Every call takes the `projectId` the caller already resolved from the
 * principal (`loadOwnedProject`); mutations write their audit entry in the same transaction.
 */
export function createOAuthClientsRepository(db: Kysely<Database>, deps: { pepper?: string } = {}) {
  const { pepper } = deps;
  return {
    /** Creates a client; a confidential one (auth method ≠ none) gets its first secret, returned this once. */
    async create(actor: Actor, projectId: string, input: ClientMetadataInput): Promise<OAuthClientCreated> {
      const meta = resolveClientMetadata(input);
      assertValidClientMetadata(meta);
      const now = new Date().toISOString();
      const row: OAuthClientRow = {
        client_id: newId('oc'),
        project_id: projectId,
        ...toColumns(meta),
        create_time: now,
        update_time: now,
      };
      return db.transaction().execute(async (trx) => {
        await trx.insertInto('oauth_clients').values(row).execute();
        const secret = isConfidential(meta) ? await insertClientSecret(trx, row.client_id, { displayName: '' }, pepper) : undefined;
        await recordAudit(trx, {
          ...actor,
          action: 'oauth_client.create',
          resourceType: 'oauth_client',
          resourceId: row.client_id,
          projectId,
          details: {
            tokenEndpointAuthMethod: meta.tokenEndpointAuthMethod,
            grantTypes: meta.grantTypes,
            ...(secret ? { secretId: secret.secretId } : {}),
          },
        });
        return {
          ...toOAuthClient(row),
          ...(secret ? { clientSecret: secret.clientSecret, clientSecretId: secret.secretId, clientSecretExpiresAt: 0 } : {}),
        };
      });
    },

    async get(projectId: string, clientId: string): Promise<OAuthClient> {
      return toOAuthClient(await findClientRow(db, projectId, clientId));
    },

    /** Oldest first, paged by the time-sortable client id. */
    async list(projectId: string, page: PageQuery): Promise<{ oauthClients: OAuthClient[]; nextPageToken?: string }> {
      const pageSize = page.pageSize ?? DEFAULT_PAGE_SIZE;
      const after = decodePageToken(page.pageToken);
      let q = db.selectFrom('oauth_clients').selectAll().where('project_id', '=', projectId);
      if (after) q = q.where('client_id', '>', after);
      const rows = await q
        .orderBy('client_id')
        .limit(pageSize + 1)
        .execute();
      const { items, nextPageToken } = toPage(rows, pageSize, (r) => r.client_id);
      return { oauthClients: items.map(toOAuthClient), ...(nextPageToken ? { nextPageToken } : {}) };
    },

    /**
     * Fields present replace the stored ones; the result is validated as a whole. Switching to `none`
     * (public) is refused while the client has active secrets: revoke them first.
     */
    async update(actor: Actor, projectId: string, clientId: string, input: ClientMetadataInput): Promise<OAuthClient> {
      return db.transaction().execute(async (trx) => {
        const current = await findClientRow(trx, projectId, clientId);
        const meta = resolveClientMetadata(input, toMetadata(current));
        assertValidClientMetadata(meta);
        if (!isConfidential(meta) && (await countActiveSecrets(trx, clientId)) > 0) {
          throw new AppError('FAILED_PRECONDITION', 'A client with active secrets cannot become public (none): revoke its secrets first.', {
            fieldViolations: [{ field: 'tokenEndpointAuthMethod', description: "Revoke the client's active secrets first." }],
          });
        }
        const updated: OAuthClientRow = { ...current, ...toColumns(meta), update_time: new Date().toISOString() };
        await trx.updateTable('oauth_clients').set(updated).where('client_id', '=', clientId).execute();
        await recordAudit(trx, {
          ...actor,
          action: 'oauth_client.update',
          resourceType: 'oauth_client',
          resourceId: clientId,
          projectId,
          details: {
            fields: Object.keys(input)
              .filter((k) => input[k as keyof ClientMetadataInput] !== undefined)
              .sort(),
          },
        });
        return toOAuthClient(updated);
      });
    },

    /** Deletes the client and its secrets at once (the audit log keeps the record). */
    async remove(actor: Actor, projectId: string, clientId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await findClientRow(trx, projectId, clientId);
        await trx.deleteFrom('oauth_client_secrets').where('client_id', '=', clientId).execute();
        await trx.deleteFrom('oauth_clients').where('client_id', '=', clientId).where('project_id', '=', projectId).execute();
        await recordAudit(trx, {
          ...actor,
          action: 'oauth_client.delete',
          resourceType: 'oauth_client',
          resourceId: clientId,
          projectId,
        });
      });
    },
  };
}

export type OAuthClientsRepository = ReturnType<typeof createOAuthClientsRepository>;
