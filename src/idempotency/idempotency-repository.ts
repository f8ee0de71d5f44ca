import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { IdempotencyKeysTable } from './idempotency-tables.ts';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

/** What a request holding an `Idempotency-Key` must do. */
/** What a retry learns when the change committed but its response was never stored (the node died). */
export interface CommittedChange {
  action: string;
  resourceType: string;
  resourceId: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; status: number; body: string; redactedFields: string[] }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' }
  /** The change committed but its response was lost (crash): what it changed. */
  | { kind: 'recovered'; change: CommittedChange };

/** A claim this request holds; `claimedAt` guards against finishing a claim someone else took over. */
export interface Claim {
  principal: string;
  key: string;
  claimedAt: string;
}

export interface ClaimInput {
  principal: string;
  key: string;
  fingerprint: string;
  now: Date;
  /** An IN_FLIGHT claim older than this is abandoned (its node died) and may be taken over. */
  lockTtlMs: number;
  /** Records older than this are treated as absent (Stripe prunes after ≥ 24 h). */
  retentionMs: number;
}

/**
 * The idempotency store. The claim is atomic on every node and dialect: an insert with
 * `ON CONFLICT DO NOTHING` on the (principal, key) primary key, never select-then-insert
 * (https://brandur.org/idempotency-keys).
 */
export function createIdempotencyRepository(db: Kysely<Database>) {
  async function tryInsert(input: ClaimInput): Promise<boolean> {
    const at = input.now.toISOString();
    const result = await db
      .insertInto('idempotency_keys')
      .values({
        principal: input.principal,
        idempotency_key: input.key,
        fingerprint: input.fingerprint,
        state: 'IN_FLIGHT',
        response_status: null,
        response_body: null,
        redacted_fields: null,
        create_time: at,
        update_time: at,
      })
      .onConflict((oc) => oc.columns(['principal', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async function find(principal: string, key: string): Promise<IdempotencyRow | undefined> {
    return db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('principal', '=', principal)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /** Compare-and-set on `update_time` and `state`: only one of several racing retries wins a takeover. */
  async function takeOver(row: IdempotencyRow, input: ClaimInput): Promise<boolean> {
    const at = input.now.toISOString();
    const result = await db
      .updateTable('idempotency_keys')
      .set({
        update_time: at,
        create_time: at,
        fingerprint: input.fingerprint,
        state: 'IN_FLIGHT',
        response_status: null,
        response_body: null,
        redacted_fields: null,
      })
      .where('principal', '=', row.principal)
      .where('idempotency_key', '=', row.idempotency_key)
      .where('update_time', '=', row.update_time)
      // Not a row whose change committed meanwhile (COMMITTED keeps update_time): that is never re-run.
      .where('state', '=', row.state)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  return {
    async claim(input: ClaimInput): Promise<ClaimOutcome> {
      const claimed: ClaimOutcome = {
        kind: 'claimed',
        claim: { principal: input.principal, key: input.key, claimedAt: input.now.toISOString() },
      };
      if (await tryInsert(input)) return claimed;
      const row = await find(input.principal, input.key);
      if (!row) return (await tryInsert(input)) ? claimed : { kind: 'in-flight' };
      const age = input.now.getTime() - Date.parse(row.create_time);
      // An expired record is as good as absent: the key may be reused for anything.
      if (age > input.retentionMs) return (await takeOver(row, input)) ? claimed : { kind: 'in-flight' };
      if (row.fingerprint !== input.fingerprint) return { kind: 'mismatch' };
      if (row.state === 'COMPLETED') {
        return {
          kind: 'replay',
          status: row.response_status ?? 200,
          body: row.response_body ?? '',
          redactedFields: row.redacted_fields ? (JSON.parse(row.redacted_fields) as string[]) : [],
        };
      }
      const lockAge = input.now.getTime() - Date.parse(row.update_time);
      if (row.state === 'COMMITTED') {
        // The change committed, then its node died before storing the response: never run it again.
        return lockAge > input.lockTtlMs
          ? { kind: 'recovered', change: JSON.parse(row.response_body ?? '{}') as CommittedChange }
          : { kind: 'in-flight' };
      }
      if (lockAge > input.lockTtlMs && (await takeOver(row, input))) return claimed;
      return { kind: 'in-flight' };
    },

    /** Stores the response to replay; only the claim's owner calls it. */
    async complete(claim: Claim, response: { status: number; body: string; redactedFields: string[] }): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({
          state: 'COMPLETED',
          response_status: response.status,
          response_body: response.body,
          redacted_fields: response.redactedFields.length ? JSON.stringify(response.redactedFields) : null,
          update_time: new Date().toISOString(),
        })
        .where('principal', '=', claim.principal)
        .where('idempotency_key', '=', claim.key)
        .where('state', 'in', ['IN_FLIGHT', 'COMMITTED'])
        .where('update_time', '=', claim.claimedAt)
        .execute();
    },

    /** Drops an unfinished claim (the request failed with a 5xx and committed nothing): a retry runs again. */
    async release(claim: Claim): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('principal', '=', claim.principal)
        .where('idempotency_key', '=', claim.key)
        .where('state', '=', 'IN_FLIGHT')
        .where('update_time', '=', claim.claimedAt)
        .execute();
    },

    /** Deletes records created before `before`; returns how many. */
    async prune(before: Date): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('create_time', '<', before.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    find,
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
