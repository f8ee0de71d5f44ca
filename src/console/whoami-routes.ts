import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { accountAuth, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { Whoami } from '../accounts/accounts-schemas.ts';

/**
 * `GET /api/whoami`: the account of the presented account token (token introspection, like
 * GitHub's `GET /user` or Stripe's `GET /v1/account`). The console signs in with a token alone and
 * learns its account here; scripts can use it to check a token before using it.
 */
export const whoamiRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string }> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  app.get(
    '/api/whoami',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The account of the presented account token',
        security: ACCOUNT_TOKEN_SECURITY,
        response: { 200: Whoami },
      },
    },
    async (request, reply) => {
      const { accountId, tokenId } = requirePrincipal(request);
      void reply.header('cache-control', 'no-store');
      return { accountId, tokenId };
    },
  );
};
