import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { requirePrincipal } from '../accounts/account-auth.ts';
import { createIdempotencyRepository, type Claim } from './idempotency-repository.ts';
import { requestFingerprint } from './request-fingerprint.ts';
import { recoveredBody, redactSecrets, replayBody } from './redact-secrets.ts';
import { withClaim } from './idempotency-context.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Stripe: keys up to 255 characters, kept at least 24 hours. */
export const MAX_KEY_LENGTH = 255;
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose node never finished it (crash) may be taken over by a retry (default of IDEMPOTENCY_LOCK_TTL_MS). */
export const LOCK_TTL_MS = 60_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]+$/;

/** The setup POST routes (API.md §2 "Setup operations"): everything a retry could duplicate. */
export function isIdempotentRoute(method: string | string[], url: string): boolean {
  const methods = Array.isArray(method) ? method : [method];
  return methods.includes('POST') && (url.startsWith('/api/accounts/') || url.startsWith('/api/projects/'));
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
}

function readKey(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(', ') : raw;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `Invalid Idempotency-Key: use 1–${MAX_KEY_LENGTH} visible ASCII characters (a UUID is a good choice).`,
      {
        fieldViolations: [
          { field: 'Idempotency-Key', description: `1–${MAX_KEY_LENGTH} visible ASCII characters, got ${key.length} characters.` },
        ],
      },
    );
  }
  return key;
}

/**
 * `Idempotency-Key` on the setup POST routes, with Stripe / IETF-draft semantics
 * (draft-ietf-httpapi-idempotency-key-header): the first request with a key runs and its response
 * (status + body) is stored; a retry with the same key and the same request gets that response
 * again (`Idempotent-Replayed: true`) without creating anything; the same key with a different
 * request → 422 IDEMPOTENCY_KEY_MISMATCH; while the first is still running → 409
 * IDEMPOTENCY_KEY_IN_USE. Keys are scoped by the account of the token, kept 24 h.
 *
 * One-time secrets (`keyString`, `clientSecret`, …) are never stored: a replay returns the same
 * resource without them and with `secretUnavailable` saying so (KEYS-SECURITY.md §6.2 option (b)).
 * A 5xx is not stored (our writes are one transaction, so nothing was committed) and the key is
 * released: the retry runs again. Register before the route plugins: it attaches to routes as
 * they are declared (`onRoute`).
 */
export const idempotencyPlugin = fp<{ db: Kysely<Database>; lockTtlMs?: number }>(
  async (app, { db, lockTtlMs = LOCK_TTL_MS }) => {
    const repo = createIdempotencyRepository(db);

    const claimHook: preHandlerAsyncHookHandler = async function claimIdempotencyKey(request: FastifyRequest, reply: FastifyReply) {
      const key = readKey(request);
      if (key === undefined) return;
      const principal = requirePrincipal(request).accountId;
      const fingerprint = requestFingerprint(request.method, request.url, request.body);
      const outcome = await repo.claim({ principal, key, fingerprint, now: new Date(), lockTtlMs, retentionMs: RETENTION_MS });
      switch (outcome.kind) {
        case 'claimed':
          request.idempotencyClaim = outcome.claim;
          return;
        case 'mismatch':
          throw new AppError(
            'IDEMPOTENCY_KEY_MISMATCH',
            'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
          );
        case 'in-flight':
          throw new AppError(
            'IDEMPOTENCY_KEY_IN_USE',
            'A request with this Idempotency-Key is still being processed; retry after it finished.',
            { retryAfter: 1 },
          );
        case 'recovered':
          // Its node died between committing the change and storing the response: say what was
          // changed (200) instead of applying it again. Secrets were never stored.
          return reply
            .code(200)
            .header('idempotent-replayed', 'true')
            .type('application/json; charset=utf-8')
            .send(recoveredBody(outcome.change));
        case 'replay':
          return reply
            .code(outcome.status)
            .header('idempotent-replayed', 'true')
            .type('application/json; charset=utf-8')
            .send(replayBody(outcome.body, outcome.redactedFields));
      }
    };

    const storeHook: onSendAsyncHookHandler<unknown> = async function storeIdempotentResponse(request, reply, payload) {
      const claim = request.idempotencyClaim;
      if (!claim) return payload;
      request.idempotencyClaim = undefined;
      try {
        if (reply.statusCode >= 500 || typeof payload !== 'string') {
          await repo.release(claim);
        } else {
          const { body, redactedFields } = redactSecrets(payload);
          await repo.complete(claim, { status: reply.statusCode, body, redactedFields });
        }
      } catch (err) {
        // The response itself is sent regardless; the claim expires after LOCK_TTL_MS.
        request.log.warn({ err }, 'could not record the idempotent response');
      }
      return payload;
    };

    app.addHook('onRoute', (route) => {
      if (!isIdempotentRoute(route.method, route.url)) return;
      route.preHandler = [...toArray(route.preHandler), claimHook];
      route.onSend = [...toArray(route.onSend), storeHook];
      // The handler runs with its claim in scope, so the change's transaction marks it (recordAudit).
      const handler = route.handler;
      route.handler = function handleWithClaim(this: unknown, request, reply) {
        const claim = request.idempotencyClaim;
        return claim ? withClaim(claim, () => handler.call(this as never, request, reply)) : handler.call(this as never, request, reply);
      };
    });

    const prune = () => repo.prune(new Date(Date.now() - RETENTION_MS)).catch((err) => app.log.warn({ err }, 'idempotency prune failed'));
    const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
    timer.unref();
    app.addHook('onReady', async () => void prune());
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'legible-idempotency' },
);

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
