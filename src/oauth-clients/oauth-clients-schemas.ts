import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_URI_LENGTH } from './redirect-uri.ts';

/** A string enum as plain JSON Schema `enum`, so a bad value reads "must be equal to one of the allowed values". */
function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** OAuth 2.1 removes `implicit` and `password` (https://oauth.net/2.1/); they are refused, not ignored. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
/** `token` (the implicit flow) is gone in OAuth 2.1. */
export const RESPONSE_TYPES = ['code'] as const;

export type GrantType = (typeof GRANT_TYPES)[number];
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const MAX_REDIRECT_URIS = 20;
export const MAX_CONTACTS = 10;
/** Published cap on a client's secrets that are neither revoked nor expired. */
export const MAX_ACTIVE_SECRETS = 5;

const NoControlChars = '^[^\\u0000-\\u001f\\u007f]*$';
/** RFC 6749 §3.3: space-separated scope-tokens of %x21 / %x23-5B / %x5D-7E. */
const ScopePattern = '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+( [\\x21\\x23-\\x5b\\x5d-\\x7e]+)*$';

const ClientName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: NoControlChars,
  description: 'Shown to users on consent screens.',
});
const Uri = Type.String({ minLength: 1, maxLength: MAX_URI_LENGTH, description: 'https (http only on loopback).' });
const RedirectUris = Type.Array(Type.String({ maxLength: MAX_URI_LENGTH }), {
  maxItems: MAX_REDIRECT_URIS,
  uniqueItems: true,
  description:
    'Matched by exact string. https; http only on 127.0.0.1, [::1] or localhost (RFC 8252); private-use schemes ' +
    'in reverse-domain form (com.example.app:/cb) for native apps. No fragments, no wildcards. Required with authorization_code.',
});
const GrantTypes = Type.Array(StringEnum(GRANT_TYPES), {
  minItems: 1,
  maxItems: GRANT_TYPES.length,
  uniqueItems: true,
  description: 'Default ["authorization_code"]. implicit and password are not supported (OAuth 2.1).',
});
const ResponseTypes = Type.Array(StringEnum(RESPONSE_TYPES), {
  maxItems: 1,
  uniqueItems: true,
  description: 'Default ["code"] when grantTypes include authorization_code, else [].',
});
const TokenEndpointAuthMethod = StringEnum(AUTH_METHODS, {
  description: 'Default client_secret_basic. none = public client (PKCE only, no secrets).',
});
const Scope = Type.String({ minLength: 1, maxLength: 1000, pattern: ScopePattern });
const Contacts = Type.Array(
  Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@\\u0000-\\u001f\\u007f]+@[^\\s@\\u0000-\\u001f\\u007f]+$' }),
  {
    maxItems: MAX_CONTACTS,
    uniqueItems: true,
  },
);

export const OAuthClientCreateBody = Type.Object(
  {
    clientName: Type.Optional(ClientName),
    redirectUris: Type.Optional(RedirectUris),
    grantTypes: Type.Optional(GrantTypes),
    responseTypes: Type.Optional(ResponseTypes),
    tokenEndpointAuthMethod: Type.Optional(TokenEndpointAuthMethod),
    clientUri: Type.Optional(Uri),
    logoUri: Type.Optional(Uri),
    tosUri: Type.Optional(Uri),
    policyUri: Type.Optional(Uri),
    scope: Type.Optional(Scope),
    contacts: Type.Optional(Contacts),
  },
  { additionalProperties: false },
);
export type OAuthClientCreateBody = Static<typeof OAuthClientCreateBody>;

/** Fields present replace the stored ones; `null` clears an optional one. */
export const OAuthClientUpdateBody = Type.Object(
  {
    clientName: Type.Optional(Nullable(ClientName)),
    redirectUris: Type.Optional(RedirectUris),
    grantTypes: Type.Optional(GrantTypes),
    responseTypes: Type.Optional(ResponseTypes),
    tokenEndpointAuthMethod: Type.Optional(TokenEndpointAuthMethod),
    clientUri: Type.Optional(Nullable(Uri)),
    logoUri: Type.Optional(Nullable(Uri)),
    tosUri: Type.Optional(Nullable(Uri)),
    policyUri: Type.Optional(Nullable(Uri)),
    scope: Type.Optional(Nullable(Scope)),
    contacts: Type.Optional(Contacts),
  },
  { additionalProperties: false },
);
export type OAuthClientUpdateBody = Static<typeof OAuthClientUpdateBody>;

export const OAuthClient = Type.Object({
  clientId: Type.String(),
  projectId: Type.String(),
  name: Type.String({ description: 'projects/{projectId}/oauthClients/{clientId}' }),
  clientName: Type.Optional(Type.String()),
  redirectUris: Type.Array(Type.String()),
  grantTypes: Type.Array(Type.String()),
  responseTypes: Type.Array(Type.String()),
  tokenEndpointAuthMethod: Type.String(),
  clientUri: Type.Optional(Type.String()),
  logoUri: Type.Optional(Type.String()),
  tosUri: Type.Optional(Type.String()),
  policyUri: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
  contacts: Type.Array(Type.String()),
  clientIdIssuedAt: Type.Integer({ description: 'Seconds since the epoch (RFC 7591).' }),
  createTime: Type.String({ format: 'date-time' }),
  updateTime: Type.String({ format: 'date-time' }),
});
export type OAuthClient = Static<typeof OAuthClient>;

export const OAuthClientCreated = Type.Composite([
  OAuthClient,
  Type.Object({
    clientSecret: Type.Optional(Type.String({ description: 'Confidential clients only: the first secret, shown this once.' })),
    clientSecretId: Type.Optional(Type.String()),
    clientSecretExpiresAt: Type.Optional(Type.Integer({ description: 'RFC 7591: 0 = never.' })),
  }),
]);
export type OAuthClientCreated = Static<typeof OAuthClientCreated>;

export const SECRET_STATES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type SecretState = (typeof SECRET_STATES)[number];

export const ClientSecret = Type.Object({
  secretId: Type.String(),
  clientId: Type.String(),
  displayName: Type.String(),
  hint: Type.String({ description: 'The prefix and first 4 characters: enough to recognise, never to use.' }),
  state: StringEnum(SECRET_STATES),
  createTime: Type.String({ format: 'date-time' }),
  expireTime: Type.Optional(Type.String({ format: 'date-time' })),
  revokeTime: Type.Optional(Type.String({ format: 'date-time' })),
  lastUsedTime: Type.Optional(Type.String({ format: 'date-time' })),
});
export type ClientSecret = Static<typeof ClientSecret>;

export const ClientSecretCreated = Type.Composite([
  ClientSecret,
  Type.Object({ clientSecret: Type.String({ description: 'The secret, shown this once.' }) }),
]);
export type ClientSecretCreated = Static<typeof ClientSecretCreated>;

export const ClientSecretCreateBody = Type.Object(
  {
    displayName: Type.Optional(Type.String({ maxLength: 200, pattern: NoControlChars })),
    expireTime: Type.Optional(Type.String({ format: 'date-time', maxLength: 40, description: 'Must be in the future; absent = never.' })),
  },
  { additionalProperties: false },
);
export type ClientSecretCreateBody = Static<typeof ClientSecretCreateBody>;

/**
 * Path ids are only looked up (anything that is no client of the project answers 404), so their schema
 * only bounds length and refuses control characters (PostgreSQL rejects NUL in text: a 500 otherwise).
 */
const PathId = Type.String({ minLength: 1, maxLength: 200, pattern: NoControlChars });
export const ProjectParams = Type.Object({ project: PathId });
export type ProjectParams = Static<typeof ProjectParams>;
export const ClientParams = Type.Object({ project: PathId, clientId: PathId });
export type ClientParams = Static<typeof ClientParams>;
export const SecretParams = Type.Object({ project: PathId, clientId: PathId, secretId: PathId });
export type SecretParams = Static<typeof SecretParams>;

export const OAuthClientList = Type.Object({
  oauthClients: Type.Array(OAuthClient),
  nextPageToken: Type.Optional(Type.String()),
});
export type OAuthClientList = Static<typeof OAuthClientList>;
export const ClientSecretList = Type.Object({
  secrets: Type.Array(ClientSecret),
  nextPageToken: Type.Optional(Type.String()),
});
export type ClientSecretList = Static<typeof ClientSecretList>;
