/** Times are RFC 3339 UTC strings (`toISOString()`), identical on SQLite and PostgreSQL and sortable as text. */
export interface AccountsTable {
  account_id: string;
  create_time: string;
}

export interface AccountTokensTable {
  token_id: string;
  account_id: string;
  /** `hashSecret(token)`: the only stored form of the secret; unique, looked up on every setup request. */
  token_hash: string;
  hint: string;
  create_time: string;
  revoke_time: string | null;
}

export interface AccountsTables {
  accounts: AccountsTable;
  account_tokens: AccountTokensTable;
}
