import { Type, type Static } from '@sinclair/typebox';

/** One entry of `GET /api/accounts/{account}/audit-log`. */
export const AuditEntry = Type.Object({
  auditId: Type.String(),
  accountId: Type.String(),
  actor: Type.String({ description: '`token:<tokenId>` or `cli`.' }),
  action: Type.String({ examples: ['api_key.create'] }),
  resourceType: Type.String(),
  resourceId: Type.String(),
  projectId: Type.Optional(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  createTime: Type.String({ format: 'date-time' }),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditList = Type.Object({ entries: Type.Array(AuditEntry), nextPageToken: Type.Optional(Type.String()) });
export type AuditList = Static<typeof AuditList>;
