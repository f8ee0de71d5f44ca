/** Times are RFC 3339 UTC strings, as in every other table; JSON arrays are text. */
export interface OAuthClientsTable {
  /** Public, time-sortable (`newId('oc')`): lists page by it. */
  client_id: string;
  project_id: string;
  client_name: string | null;
  /** JSON string[]: matched by exact string at the authorization endpoint. */
  redirect_uris: string;
  /** JSON string[] of `authorization_code` | `refresh_token` | `client_credentials`. */
  grant_types: string;
  /** JSON string[]: `["code"]` or `[]`. */
  response_types: string;
  /** `client_secret_basic` | `client_secret_post` | `none` (public client: no secrets). */
  token_endpoint_auth_method: string;
  client_uri: string | null;
  logo_uri: string | null;
  tos_uri: string | null;
  policy_uri: string | null;
  scope: string | null;
  /** JSON string[] of e-mail addresses. */
  contacts: string;
  create_time: string;
  update_time: string;
}

/** Several per client, so a rotation can overlap. Only the hash of the secret is stored. */
export interface OAuthClientSecretsTable {
  secret_id: string;
  client_id: string;
  /** `hashSecret(secret, pepper)`; unique. */
  secret_hash: string;
  hint: string;
  display_name: string;
  create_time: string;
  expire_time: string | null;
  /** Set by DELETE: the secret stops working at once; the row stays, listed as `REVOKED`. */
  revoke_time: string | null;
  last_used_time: string | null;
}

export interface OAuthClientsTables {
  oauth_clients: OAuthClientsTable;
  oauth_client_secrets: OAuthClientSecretsTable;
}
