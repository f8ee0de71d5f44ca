import { Type, type Static } from '@sinclair/typebox';

/** API.md §1 (fixed): 3–30 chars, a lowercase letter first. */
export const ACCOUNT_ID_PATTERN = '^[a-z][a-z0-9-]{2,29}$';

export const Account = Type.Object({
  name: Type.String({ description: '`accounts/{accountId}`' }),
  accountId: Type.String(),
  createTime: Type.String({ format: 'date-time' }),
});
export type Account = Static<typeof Account>;

export const AccountToken = Type.Object({
  name: Type.String({ description: '`accounts/{accountId}/tokens/{tokenId}`' }),
  tokenId: Type.String(),
  accountId: Type.String(),
  hint: Type.String({ description: 'The prefix and first characters of the secret, for recognising it.' }),
  createTime: Type.String({ format: 'date-time' }),
  revokeTime: Type.Optional(Type.String({ format: 'date-time' })),
});
export type AccountToken = Static<typeof AccountToken>;

export const TokenList = Type.Object({ tokens: Type.Array(AccountToken), nextPageToken: Type.Optional(Type.String()) });
export type TokenList = Static<typeof TokenList>;

export const CreatedToken = Type.Object({
  tokenInfo: AccountToken,
  token: Type.String({ description: 'The secret. Shown only in this response.' }),
});
export type CreatedToken = Static<typeof CreatedToken>;

/** `GET /api/whoami`: the presented account token's account. */
export const Whoami = Type.Object({
  accountId: Type.String({ description: 'The account the token belongs to.' }),
  tokenId: Type.String({ description: 'The token’s public id (never the secret).' }),
});
export type Whoami = Static<typeof Whoami>;

export const AccountParams = Type.Object({ account: Type.String({ maxLength: 200 }) });
export type AccountParams = Static<typeof AccountParams>;
