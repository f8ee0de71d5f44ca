/**
 * Account-token authentication for setup routes. Usage, in a route plugin:
 *
 *   export const widgetRoutes: FastifyPluginAsync<{ db: Kysely<Database>; pepper?: string; widgets: WidgetsRepository }> = async (app, { db, pepper, widgets }) => {
 *     app.addHook('onRequest', accountAuth({ db, pepper }));       // every route of this plugin
 *     app.post('/api/projects/:project/widgets', { schema: { tags: ['widgets'], security: ACCOUNT_TOKEN_SECURITY, … } },
 *       async (request) => {
 *         const principal = requirePrincipal(request);             // { accountId, tokenId }
 *         const project = await loadOwnedProject(db, principal, request.params.project, { requireActive: true });
 *         return widgets.create(auditActor(principal), project.projectId, request.body); // the change and its audit row
 *       });
 *   };
 *
 * Outcomes (all in Google's envelope): no credential → 401 CREDENTIALS_MISSING; malformed, unknown or
 * revoked token → 401 ACCESS_TOKEN_INVALID; an API key (or client secret) → 401
 * ACCESS_TOKEN_TYPE_UNSUPPORTED; a project of another account, or absent → 404 NOT_FOUND (existence
 * does not leak); `requireActive` on a DELETE_REQUESTED project → 400 FAILED_PRECONDITION.
 * Tokens are not cached: revocation applies to the very next request.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { digestsEqual, hashSecret, parseSecret } from '../credentials/secret-format.ts';
import { bearerCredential } from '../credentials/bearer-credential.ts';
import type { Actor } from '../audit/audit-log.ts';
import { createAccountsRepository } from './accounts-repository.ts';

export interface Principal {
  accountId: string;
  tokenId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `accountAuth` on setup routes. Read it with `requirePrincipal(request)`. */
    principal?: Principal;
  }
}

/** For route schemas: `security: ACCOUNT_TOKEN_SECURITY` documents the credential in OpenAPI. */
export const ACCOUNT_TOKEN_SECURITY = [{ accountToken: [] }];

const CHALLENGE = { 'www-authenticate': 'Bearer realm="legible"' };
const EXPECTED = 'Send an account token as `Authorization: Bearer lgb_at_…` (see `legible tokens create`).';

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header === '') return undefined;
  return bearerCredential(header);
}

function apiKeyElsewhere(request: FastifyRequest): boolean {
  const header = request.headers['x-goog-api-key'];
  const query = (request.query as Record<string, unknown> | undefined)?.key;
  return [header, query].some((v) => typeof v === 'string' && parseSecret(v) !== null);
}

/** An `onRequest` hook resolving `Authorization: Bearer <account token>` to `request.principal`. */
export function accountAuth(deps: { db: Kysely<Database>; pepper?: string }): onRequestAsyncHookHandler {
  const accounts = createAccountsRepository(deps.db, { pepper: deps.pepper });
  return async function authenticateAccount(request) {
    const credential = bearerOf(request);
    if (credential === undefined) {
      if (apiKeyElsewhere(request)) {
        throw new AppError('ACCESS_TOKEN_TYPE_UNSUPPORTED', `API keys cannot be used for setup operations. ${EXPECTED}`, {
          headers: CHALLENGE,
        });
      }
      throw new AppError('CREDENTIALS_MISSING', `Request is missing required authentication credential. ${EXPECTED}`, {
        headers: CHALLENGE,
      });
    }
    const parsed = parseSecret(credential);
    if (parsed && parsed.kind !== 'account_token') {
      throw new AppError('ACCESS_TOKEN_TYPE_UNSUPPORTED', `API keys and client secrets cannot be used for setup operations. ${EXPECTED}`, {
        headers: CHALLENGE,
      });
    }
    const invalid = new AppError('ACCESS_TOKEN_INVALID', `Request had invalid authentication credentials. ${EXPECTED}`, {
      headers: CHALLENGE,
    });
    if (!parsed) throw invalid;
    const hash = hashSecret(credential, deps.pepper);
    const row = await accounts.findActiveToken(hash);
    if (!row || !digestsEqual(row.token_hash, hash)) throw invalid;
    request.principal = { accountId: row.account_id, tokenId: row.token_id };
  };
}

/** The authenticated principal; fails closed (500) if a route forgot the `accountAuth` hook. */
export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('INTERNAL', 'Setup route registered without accountAuth.');
  return request.principal;
}

/** Audit `actor` for a principal. */
export function actorOf(principal: Principal): string {
  return `token:${principal.tokenId}`;
}

/** The principal as the `actor` a repository mutation records in its audit row. */
export function auditActor(principal: Principal): Actor {
  return { accountId: principal.accountId, actor: actorOf(principal) };
}

/** `/api/accounts/{account}/…` is only visible to that account's tokens; others get 404. */
export function requireOwnAccount(principal: Principal, accountId: string): void {
  if (principal.accountId !== accountId) throw new AppError('NOT_FOUND', `Account "${accountId}" not found.`);
}
