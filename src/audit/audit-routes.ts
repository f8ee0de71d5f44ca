import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { accountAuth, requireOwnAccount, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { AccountParams } from '../accounts/accounts-schemas.ts';
import { PageQuery } from '../shared/pagination.ts';
import { listAudit } from './audit-log.ts';
import { AuditList } from './audit-schemas.ts';

/** `GET /api/accounts/{account}/audit-log`: every mutation of the account, newest first. */
export const auditRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string }> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));

  app.get<{ Params: AccountParams; Querystring: Static<typeof PageQuery> }>(
    '/api/accounts/:account/audit-log',
    {
      schema: {
        tags: ['audit'],
        summary: 'List the audit log (newest first)',
        security: ACCOUNT_TOKEN_SECURITY,
        params: AccountParams,
        querystring: PageQuery,
        response: { 200: AuditList },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      return listAudit(db, principal.accountId, request.query);
    },
  );
};
