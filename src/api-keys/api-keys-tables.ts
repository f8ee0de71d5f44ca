export interface ApiKeysTable {
  key_id: string;
  project_id: string;
  display_name: string;
  /** JSON of `KeyRestrictions`; `services` is always explicit (never "all"). */
  restrictions: string;
  /** The hint of the current secret. */
  hint: string;
  create_time: string;
  update_time: string;
  expire_time: string | null;
  /** Set when revoked (DELETE): the key stops working at once. */
  delete_time: string | null;
  /** Approximate: flushed in batches by the key verifier. */
  last_used_time: string | null;
}

/** A key's secrets: the current one, plus rotated-out ones until their grace `expire_time`. */
export interface ApiKeySecretsTable {
  secret_hash: string;
  key_id: string;
  hint: string;
  create_time: string;
  /** null for the current secret; the end of the grace period for a rotated-out one. */
  expire_time: string | null;
}

export interface ApiKeysTables {
  api_keys: ApiKeysTable;
  api_key_secrets: ApiKeySecretsTable;
}
