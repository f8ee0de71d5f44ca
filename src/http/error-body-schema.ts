import { Type, type Static } from '@sinclair/typebox';

// OpenAPI 3.0 has no `const` or `patternProperties`: one-value enums and `additionalProperties` instead.

/**
 * Google's error envelope as `toErrorBody` (src/errors.ts) writes it: `google.rpc.Status` with an
 * `ErrorInfo` (reason = the catalogue code) and, for bad fields, a `BadRequest`. The OpenAPI document
 * shows it on every operation; tests check real error responses against it.
 */
const ErrorInfo = Type.Object(
  {
    '@type': Type.String({ enum: ['type.googleapis.com/google.rpc.ErrorInfo'] }),
    reason: Type.String({ description: 'The error code of docs/errors.md, e.g. `API_KEY_INVALID`.' }),
    domain: Type.String({ description: 'Always `legible`.' }),
    metadata: Type.Optional(Type.Object({}, { additionalProperties: Type.String() })),
  },
  { additionalProperties: false },
);

const BadRequest = Type.Object(
  {
    '@type': Type.String({ enum: ['type.googleapis.com/google.rpc.BadRequest'] }),
    fieldViolations: Type.Array(Type.Object({ field: Type.String(), description: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.Integer({ description: 'The HTTP status.' }),
        status: Type.String({ description: 'The `google.rpc.Code` name, e.g. `INVALID_ARGUMENT`.' }),
        message: Type.String(),
        details: Type.Optional(Type.Array(Type.Union([ErrorInfo, BadRequest]))),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: "Google's error envelope (google.rpc.Status); `error.details[0].reason` is the code." },
);

export type ErrorBodyJson = Static<typeof ErrorBodySchema>;
