import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { AccountTokensTable } from './accounts-tables.ts';
import type { Account, AccountToken } from './accounts-schemas.ts';
import { ACCOUNT_ID_PATTERN } from './accounts-schemas.ts';
import { AppError } from '../errors.ts';
import { generateSecret, hashSecret } from '../credentials/secret-format.ts';
import { newId } from '../credentials/new-id.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { isUniqueViolation } from '../shared/unique-violation.ts';
import { decodePageToken, toPage, DEFAULT_PAGE_SIZE } from '../shared/pagination.ts';

type Db = Kysely<Database> | Transaction<Database>;
const ACCOUNT_ID = new RegExp(ACCOUNT_ID_PATTERN);

function toToken(row: Selectable<AccountTokensTable>): AccountToken {
  return {
    name: `accounts/${row.account_id}/tokens/${row.token_id}`,
    tokenId: row.token_id,
    accountId: row.account_id,
    hint: row.hint,
    createTime: row.create_time,
    ...(row.revoke_time ? { revokeTime: row.revoke_time } : {}),
  };
}

async function insertToken(db: Db, accountId: string, pepper: string | undefined): Promise<{ token: AccountToken; secret: string }> {
  const { secret, hint } = generateSecret('account_token');
  const row = {
    token_id: newId('tok'),
    account_id: accountId,
    token_hash: hashSecret(secret, pepper),
    hint,
    create_time: new Date().toISOString(),
    revoke_time: null,
  };
  await db.insertInto('account_tokens').values(row).execute();
  return { token: toToken(row), secret };
}

/**
 * The account store, shared by the CLI (which creates accounts and tokens) and the account-token
 * authentication of setup routes. Each mutation commits with its audit entry.
 */
export function createAccountsRepository(db: Kysely<Database>, deps: { pepper?: string } = {}) {
  const { pepper } = deps;
  return {
    /** A new account and its first token (the secret is returned here only). */
    async createAccount(accountId: string, actor = 'cli'): Promise<{ account: Account; token: AccountToken; secret: string }> {
      if (!ACCOUNT_ID.test(accountId)) {
        throw new AppError(
          'INVALID_ARGUMENT',
          `Invalid account id "${accountId}": use 3–30 characters, lowercase letters, digits and hyphens, starting with a letter.`,
          {
            fieldViolations: [{ field: 'accountId', description: `Must match ${ACCOUNT_ID_PATTERN}.` }],
          },
        );
      }
      try {
        return await db.transaction().execute(async (trx) => {
          const createTime = new Date().toISOString();
          await trx.insertInto('accounts').values({ account_id: accountId, create_time: createTime }).execute();
          const { token, secret } = await insertToken(trx, accountId, pepper);
          await recordAudit(trx, { accountId, actor, action: 'account.create', resourceType: 'account', resourceId: accountId });
          await recordAudit(trx, {
            accountId,
            actor,
            action: 'account_token.create',
            resourceType: 'account_token',
            resourceId: token.tokenId,
            details: { hint: token.hint },
          });
          return { account: { name: `accounts/${accountId}`, accountId, createTime }, token, secret };
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('ALREADY_EXISTS', `Account "${accountId}" already exists.`);
        throw err;
      }
    },

    async findAccount(accountId: string): Promise<Account | undefined> {
      const row = await db.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
      return row && { name: `accounts/${row.account_id}`, accountId: row.account_id, createTime: row.create_time };
    },

    async createToken(accountId: string, actor = 'cli'): Promise<{ token: AccountToken; secret: string }> {
      return db.transaction().execute(async (trx) => {
        const account = await trx.selectFrom('accounts').select('account_id').where('account_id', '=', accountId).executeTakeFirst();
        if (!account) throw new AppError('NOT_FOUND', `Account "${accountId}" not found.`);
        const created = await insertToken(trx, accountId, pepper);
        await recordAudit(trx, {
          accountId,
          actor,
          action: 'account_token.create',
          resourceType: 'account_token',
          resourceId: created.token.tokenId,
          details: { hint: created.token.hint },
        });
        return created;
      });
    },

    /** Revokes at once: the next request with it is refused (tokens are not cached). */
    async revokeToken(tokenId: string, actor = 'cli', accountId?: string): Promise<AccountToken> {
      return db.transaction().execute(async (trx) => {
        let q = trx.selectFrom('account_tokens').selectAll().where('token_id', '=', tokenId);
        if (accountId) q = q.where('account_id', '=', accountId);
        const row = await q.executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND', `Token "${tokenId}" not found.`);
        if (row.revoke_time) return toToken(row);
        const revokeTime = new Date().toISOString();
        await trx.updateTable('account_tokens').set({ revoke_time: revokeTime }).where('token_id', '=', tokenId).execute();
        await recordAudit(trx, {
          accountId: row.account_id,
          actor,
          action: 'account_token.revoke',
          resourceType: 'account_token',
          resourceId: tokenId,
        });
        return toToken({ ...row, revoke_time: revokeTime });
      });
    },

    /** The account's tokens (hints only), oldest first; revoked ones only with `showRevoked`. */
    async listTokens(
      accountId: string,
      page: { pageSize?: number; pageToken?: string; showRevoked?: boolean } = {},
    ): Promise<{ tokens: AccountToken[]; nextPageToken?: string }> {
      const pageSize = page.pageSize ?? DEFAULT_PAGE_SIZE;
      const after = decodePageToken(page.pageToken);
      let q = db.selectFrom('account_tokens').selectAll().where('account_id', '=', accountId);
      if (!page.showRevoked) q = q.where('revoke_time', 'is', null);
      if (after) q = q.where('token_id', '>', after);
      const rows = await q
        .orderBy('token_id')
        .limit(pageSize + 1)
        .execute();
      const { items, nextPageToken } = toPage(rows, pageSize, (r) => r.token_id);
      return { tokens: items.map(toToken), ...(nextPageToken ? { nextPageToken } : {}) };
    },

    /** The live token with this hash (the caller hashed a well-formed secret). */
    async findActiveToken(tokenHash: string): Promise<Selectable<AccountTokensTable> | undefined> {
      return db
        .selectFrom('account_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('revoke_time', 'is', null)
        .executeTakeFirst();
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
