import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { decodePageToken, toPage, DEFAULT_PAGE_SIZE, type PageQuery } from '../shared/pagination.ts';
import { countActiveSecrets, insertClientSecret, toClientSecret } from './client-secret-rows.ts';
import { MAX_ACTIVE_SECRETS, type ClientSecret, type ClientSecretCreated } from './oauth-clients-schemas.ts';

/**
 * Locks the client row for the rest of the transaction (a no-op UPDATE takes a row lock on
 * PostgreSQL; SQLite serialises writers anyway), so concurrent adds cannot overrun the cap.
 * Returns the client's auth method, or 404 when the client is not in this project.
 */
async function lockClient(trx: Transaction<Database>, projectId: string, clientId: string): Promise<string> {
  const result = await trx
    .updateTable('oauth_clients')
    .set((eb) => ({ client_id: eb.ref('client_id') }))
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', `OAuth client "${clientId}" not found.`);
  const { token_endpoint_auth_method } = await trx
    .selectFrom('oauth_clients')
    .select('token_endpoint_auth_method')
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return token_endpoint_auth_method;
}

/** `expireTime` as stored (UTC, millisecond ISO, so text order is time order); must lie in the future. */
function normaliseExpireTime(expireTime: string | undefined): string | undefined {
  if (expireTime === undefined) return undefined;
  const ms = Date.parse(expireTime);
  const invalid = (description: string) =>
    new AppError('INVALID_ARGUMENT', `Invalid value at 'expireTime': ${description}`, {
      fieldViolations: [{ field: 'expireTime', description }],
    });
  if (!Number.isFinite(ms) || ms > Date.parse('9999-12-31T23:59:59Z')) throw invalid('Not a valid RFC 3339 time.');
  if (ms <= Date.now()) throw invalid('Must be in the future.');
  return new Date(ms).toISOString();
}

/** Secrets of a project's OAuth clients: add (shown once), list (hints only), revoke. */
export function createClientSecretsRepository(db: Kysely<Database>, deps: { pepper?: string } = {}) {
  const { pepper } = deps;
  return {
    /** At most `MAX_ACTIVE_SECRETS` active secrets per client; public clients (`none`) have none. */
    async add(
      actor: Actor,
      projectId: string,
      clientId: string,
      body: { displayName?: string; expireTime?: string },
    ): Promise<ClientSecretCreated> {
      const expireTime = normaliseExpireTime(body.expireTime);
      return db.transaction().execute(async (trx) => {
        const method = await lockClient(trx, projectId, clientId);
        if (method === 'none') {
          throw new AppError('FAILED_PRECONDITION', 'A public client (tokenEndpointAuthMethod "none") has no secrets.');
        }
        if ((await countActiveSecrets(trx, clientId)) >= MAX_ACTIVE_SECRETS) {
          throw new AppError('FAILED_PRECONDITION', `A client has at most ${MAX_ACTIVE_SECRETS} active secrets; revoke one first.`, {
            metadata: { limit: String(MAX_ACTIVE_SECRETS) },
          });
        }
        const created = await insertClientSecret(trx, clientId, { displayName: body.displayName ?? '', expireTime }, pepper);
        await recordAudit(trx, {
          ...actor,
          action: 'oauth_client_secret.create',
          resourceType: 'oauth_client_secret',
          resourceId: created.secretId,
          projectId,
          details: { clientId, hint: created.hint, ...(expireTime ? { expireTime } : {}) },
        });
        return created;
      });
    },

    /** Every secret of the client, oldest first, with its state; never the secret or its hash. */
    async list(projectId: string, clientId: string, page: PageQuery): Promise<{ secrets: ClientSecret[]; nextPageToken?: string }> {
      const pageSize = page.pageSize ?? DEFAULT_PAGE_SIZE;
      const after = decodePageToken(page.pageToken);
      await assertClientExists(db, projectId, clientId);
      let q = db
        .selectFrom('oauth_client_secrets as s')
        .innerJoin('oauth_clients as c', 'c.client_id', 's.client_id')
        .selectAll('s')
        .where('c.project_id', '=', projectId)
        .where('s.client_id', '=', clientId);
      if (after) q = q.where('s.secret_id', '>', after);
      const rows = await q
        .orderBy('s.secret_id')
        .limit(pageSize + 1)
        .execute();
      const { items, nextPageToken } = toPage(rows, pageSize, (r) => r.secret_id);
      const now = new Date().toISOString();
      return { secrets: items.map((r) => toClientSecret(r, now)), ...(nextPageToken ? { nextPageToken } : {}) };
    },

    /** Stops the secret at once; the row stays, listed as REVOKED. Revoking twice changes nothing. */
    async revoke(actor: Actor, projectId: string, clientId: string, secretId: string): Promise<ClientSecret> {
      return db.transaction().execute(async (trx) => {
        await lockClient(trx, projectId, clientId);
        const row = await trx
          .selectFrom('oauth_client_secrets')
          .selectAll()
          .where('client_id', '=', clientId)
          .where('secret_id', '=', secretId)
          .executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND', `Secret "${secretId}" of OAuth client "${clientId}" not found.`);
        if (row.revoke_time !== null) return toClientSecret(row);
        const revoked = { ...row, revoke_time: new Date().toISOString() };
        await trx.updateTable('oauth_client_secrets').set({ revoke_time: revoked.revoke_time }).where('secret_id', '=', secretId).execute();
        await recordAudit(trx, {
          ...actor,
          action: 'oauth_client_secret.revoke',
          resourceType: 'oauth_client_secret',
          resourceId: secretId,
          projectId,
          details: { clientId, hint: row.hint },
        });
        return toClientSecret(revoked);
      });
    },
  };
}

async function assertClientExists(db: Kysely<Database> | Transaction<Database>, projectId: string, clientId: string): Promise<void> {
  const row = await db
    .selectFrom('oauth_clients')
    .select('client_id')
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `OAuth client "${clientId}" not found.`);
}

export type ClientSecretsRepository = ReturnType<typeof createClientSecretsRepository>;
