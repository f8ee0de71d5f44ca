import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import type { Claim, CommittedChange } from './idempotency-repository.ts';

/** The claim of the request being handled (set around the route handler by the idempotency plugin). */
interface HeldClaim {
  claim: Claim;
  committed: boolean;
}

const held = new AsyncLocalStorage<HeldClaim>();

/** Runs a route handler with its request's claim visible to `markClaimCommitted`. */
export function withClaim<T>(claim: Claim, run: () => T): T {
  return held.run({ claim, committed: false }, run);
}

/**
 * Inside a mutation's transaction (called by `recordAudit`, which every change writes): marks the
 * request's Idempotency-Key claim COMMITTED in that same transaction, so the change and "this key
 * has been applied" commit together or not at all. If the claim is no longer ours (a retry took it
 * over after our lock expired), the transaction is aborted: the change is never applied twice.
 */
export async function markClaimCommitted(trx: Transaction<Database> | unknown, change: CommittedChange): Promise<void> {
  const current = held.getStore();
  if (!current || current.committed) return;
  const { claim } = current;
  const result = await (trx as Transaction<Database>)
    .updateTable('idempotency_keys')
    .set({ state: 'COMMITTED', response_body: JSON.stringify(change) })
    .where('principal', '=', claim.principal)
    .where('idempotency_key', '=', claim.key)
    .where('state', '=', 'IN_FLIGHT')
    .where('update_time', '=', claim.claimedAt)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A retry with this Idempotency-Key took over this request; it was not applied.', {
      retryAfter: 1,
    });
  }
  current.committed = true;
}
