/**
 * One row per (principal, Idempotency-Key): claimed `IN_FLIGHT` before the handler runs, then
 * `COMPLETED` with the response to replay. Secrets are removed from `response_body` before it is
 * stored (see `redactSecrets`). Rows are pruned after 24 h.
 */
export interface IdempotencyKeysTable {
  /** Whose key: the account id of the account token (keys of different accounts never collide). */
  principal: string;
  idempotency_key: string;
  /** SHA-256 (hex) of method, path and canonical JSON body: a reuse with another request is a 422. */
  fingerprint: string;
  /** COMMITTED: the change committed (with `response_body` naming it) but the response was not stored yet. */
  state: 'IN_FLIGHT' | 'COMMITTED' | 'COMPLETED';
  response_status: number | null;
  response_body: string | null;
  /** JSON array of the secret fields removed from `response_body` (e.g. `["keyString"]`). */
  redacted_fields: string | null;
  create_time: string;
  /** When the claim was taken or last taken over; an IN_FLIGHT row older than the lock TTL is abandoned. */
  update_time: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
