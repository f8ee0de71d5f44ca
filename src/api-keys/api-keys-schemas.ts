import { Type, type Static } from '@sinclair/typebox';
import { ApiNameInAnswer, ApiNameSchema } from '../projects/api-catalog.ts';
import { DisplayName } from '../projects/projects-schemas.ts';

const MAX_ENTRIES = 100;

/** API.md §2. Formats are registered on Ajv by `key-restriction-formats.ts`. */
export const Restrictions = Type.Object(
  {
    services: Type.Optional(
      Type.Array(ApiNameSchema, {
        uniqueItems: true,
        maxItems: 10,
        description:
          'The services the key may call. Absent at creation: the services enabled on the project at that moment (never later ones). Empty: none.',
      }),
    ),
    allowedIps: Type.Optional(
      Type.Array(Type.String({ format: 'ip-or-cidr', maxLength: 64 }), {
        maxItems: MAX_ENTRIES,
        description: 'IPv4/IPv6 addresses or CIDR ranges the key may be used from.',
      }),
    ),
    allowedReferrers: Type.Optional(
      Type.Array(Type.String({ format: 'referrer-pattern', maxLength: 2048 }), {
        maxItems: MAX_ENTRIES,
        description:
          'Google-style patterns: `[scheme://]host[:port][/path]`; `*.example.com` matches subdomains, `*` in a path matches anything; no path means any path.',
      }),
    ),
    androidApps: Type.Optional(
      Type.Array(
        Type.Object(
          {
            packageName: Type.String({ format: 'android-package', maxLength: 255 }),
            sha1Fingerprint: Type.String({
              format: 'sha1-fingerprint',
              maxLength: 59,
              description: '40 hex digits, plain or colon-separated; stored as `AA:BB:…`.',
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_ENTRIES, description: 'Matched against `X-Android-Package` and `X-Android-Cert`.' },
      ),
    ),
    iosBundleIds: Type.Optional(
      Type.Array(Type.String({ format: 'ios-bundle-id', maxLength: 155 }), {
        maxItems: MAX_ENTRIES,
        description: 'Matched against `X-Ios-Bundle-Identifier`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RestrictionsInput = Static<typeof Restrictions>;

/**
 * What a key may do, as stored and answered: the request's `Restrictions` with `services` always
 * explicit (a key created without it gets the services enabled at that moment and never gains later
 * ones, the Gemini lesson, KEYS-SECURITY §2.4; an empty list allows nothing). Every other list, when
 * non-empty, must be satisfied by the request (they combine with AND); an empty or absent list does
 * not restrict. `services` comes first: the answer's field order is this schema's.
 */
export const StoredRestrictions = Type.Composite([
  Type.Object({ services: Type.Array(ApiNameInAnswer) }),
  Type.Omit(Restrictions, ['services']),
]);
export type KeyRestrictions = Static<typeof StoredRestrictions>;

const Time = Type.String({ format: 'date-time' });

export const ApiKey = Type.Object({
  name: Type.String({ description: '`projects/{projectId}/apiKeys/{keyId}`' }),
  keyId: Type.String(),
  projectId: Type.String(),
  displayName: Type.String(),
  hint: Type.String({ description: 'The prefix and first characters of the current secret.' }),
  state: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('REVOKED')]),
  restrictions: StoredRestrictions,
  createTime: Time,
  updateTime: Time,
  expireTime: Type.Optional(Time),
  deleteTime: Type.Optional(Time),
  lastUsedTime: Type.Optional(Type.String({ format: 'date-time', description: 'Approximate (flushed every few seconds).' })),
});
export type ApiKey = Static<typeof ApiKey>;

export const CreatedApiKey = Type.Composite([
  ApiKey,
  Type.Object({ keyString: Type.String({ description: 'The secret. Shown only in this response; store it now.' }) }),
]);
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const RotatedApiKey = Type.Composite([
  CreatedApiKey,
  Type.Object({ previousKeyExpireTime: Type.String({ format: 'date-time', description: 'When the previous secret stops working.' }) }),
]);
export type RotatedApiKey = Static<typeof RotatedApiKey>;

export const CreateApiKeyBody = Type.Object(
  {
    displayName: Type.Optional(DisplayName),
    restrictions: Type.Optional(Restrictions),
    expireTime: Type.Optional(Type.String({ format: 'date-time', maxLength: 40, description: 'RFC 3339; must be in the future.' })),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = Type.Object(
  {
    displayName: Type.Optional(DisplayName),
    restrictions: Type.Optional(Restrictions),
    expireTime: Type.Optional(
      Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()], { description: 'RFC 3339, or null to never expire.' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>;

export const RotateApiKeyBody = Type.Object(
  {
    graceSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604800,
        default: 0,
        description: 'How long the previous secret keeps working (0–7 days; default 0: stops at once).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RotateApiKeyBody = Static<typeof RotateApiKeyBody>;

export const ApiKeyList = Type.Object({ apiKeys: Type.Array(ApiKey), nextPageToken: Type.Optional(Type.String()) });
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyParams = Type.Object({
  project: Type.String({ maxLength: 200 }),
  keyId: Type.String({ maxLength: 200 }),
});
export type ApiKeyParams = Static<typeof ApiKeyParams>;
