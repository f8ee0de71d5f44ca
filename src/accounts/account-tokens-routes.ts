import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../db/tables.ts';
import { accountAuth, actorOf, requireOwnAccount, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from './account-auth.ts';
import { AccountParams, AccountToken, CreatedToken, TokenList } from './accounts-schemas.ts';
import { createAccountsRepository } from './accounts-repository.ts';
import { PageQuery } from '../shared/pagination.ts';
import { emptyBodyAsObject } from '../http/empty-body.ts';

const ListQuery = Type.Composite([PageQuery, Type.Object({ showRevoked: Type.Optional(Type.Boolean()) })], { additionalProperties: false });
const TokenParams = Type.Object({ account: Type.String({ maxLength: 200 }), tokenId: Type.String({ maxLength: 200 }) });
type TokenParams = Static<typeof TokenParams>;

const common = { tags: ['accounts'], security: ACCOUNT_TOKEN_SECURITY };

/**
 * An account's own tokens over HTTP (the CLI does the same): list (hints only), create (secret
 * shown once), revoke. A token can revoke itself; the next request with it is refused.
 */
export const accountTokensRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string }> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.addHook('preValidation', emptyBodyAsObject);
  const accounts = createAccountsRepository(db, { pepper });

  app.get<{ Params: AccountParams; Querystring: Static<typeof ListQuery> }>(
    '/api/accounts/:account/tokens',
    {
      schema: {
        ...common,
        summary: "List the account's tokens (never with secrets)",
        params: AccountParams,
        querystring: ListQuery,
        response: { 200: TokenList },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      return accounts.listTokens(principal.accountId, request.query);
    },
  );

  app.post<{ Params: AccountParams }>(
    '/api/accounts/:account/tokens',
    {
      schema: {
        ...common,
        summary: 'Create an account token',
        params: AccountParams,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 201: CreatedToken },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      const { token, secret } = await accounts.createToken(principal.accountId, actorOf(principal));
      return reply.code(201).send({ tokenInfo: token, token: secret });
    },
  );

  app.delete<{ Params: TokenParams }>(
    '/api/accounts/:account/tokens/:tokenId',
    {
      schema: {
        ...common,
        summary: 'Revoke an account token (refused from the next request on)',
        params: TokenParams,
        response: { 200: AccountToken },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      requireOwnAccount(principal, request.params.account);
      return accounts.revokeToken(request.params.tokenId, actorOf(principal), principal.accountId);
    },
  );
};
