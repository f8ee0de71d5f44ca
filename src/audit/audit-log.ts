import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import { newId } from '../credentials/new-id.ts';
import { markClaimCommitted } from '../idempotency/idempotency-context.ts';
import { decodePageToken, toPage, DEFAULT_PAGE_SIZE } from '../shared/pagination.ts';
import type { AuditEntry, AuditList } from './audit-schemas.ts';

/** What a repository records: the wire entry (`audit-schemas.ts`) without the id and time the store assigns. */
export type AuditInput = Omit<AuditEntry, 'auditId' | 'createTime' | 'details'> & {
  /** Non-secret facts about the change (changed field names, new state). Never secrets. */
  details?: AuditEntry['details'];
};

/** Who makes a change: the account it is recorded under and its `actor` (`actorOf(principal)`, `cli`, `api_key:<keyId>`). */
export type Actor = Pick<AuditInput, 'accountId' | 'actor'>;

/**
 * Appends one audit entry. Only repositories call it, with the transaction of the mutation it
 * describes, so the change and its record commit (or roll back) together.
 * @example await db.transaction().execute(async (trx) => { …; await recordAudit(trx, { accountId, actor, action: 'project.create', resourceType: 'project', resourceId }); });
 */
export async function recordAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditInput): Promise<void> {
  // Every change is audited in its own transaction: the request's Idempotency-Key commits with it.
  if (db.isTransaction)
    await markClaimCommitted(db, { action: entry.action, resourceType: entry.resourceType, resourceId: entry.resourceId });
  await db
    .insertInto('audit_log')
    .values({
      audit_id: newId('aud'),
      account_id: entry.accountId,
      actor: entry.actor,
      action: entry.action,
      resource_type: entry.resourceType,
      resource_id: entry.resourceId,
      project_id: entry.projectId ?? null,
      details: JSON.stringify(entry.details ?? {}),
      create_time: new Date().toISOString(),
    })
    .execute();
}

/** An account's audit entries, newest first, paginated. */
export async function listAudit(
  db: Kysely<Database>,
  accountId: string,
  page: { pageSize?: number; pageToken?: string },
): Promise<AuditList> {
  const pageSize = page.pageSize ?? DEFAULT_PAGE_SIZE;
  const before = decodePageToken(page.pageToken);
  let query = db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId);
  if (before) query = query.where('audit_id', '<', before);
  const rows = await query
    .orderBy('audit_id', 'desc')
    .limit(pageSize + 1)
    .execute();
  const { items, nextPageToken } = toPage(rows, pageSize, (r) => r.audit_id);
  return {
    entries: items.map((r) => ({
      auditId: r.audit_id,
      accountId: r.account_id,
      actor: r.actor,
      action: r.action,
      resourceType: r.resource_type,
      resourceId: r.resource_id,
      ...(r.project_id ? { projectId: r.project_id } : {}),
      details: JSON.parse(r.details) as Record<string, unknown>,
      createTime: r.create_time,
    })),
    ...(nextPageToken ? { nextPageToken } : {}),
  };
}
