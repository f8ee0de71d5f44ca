import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { OperationKind, OperationState, VisionOperationsTable } from './operations-tables.ts';

export type OperationRow = VisionOperationsTable;

/** What a job has written: per input file (one unit for images:asyncBatchAnnotate), its batches. */
export interface JobProgress {
  /** `inline`: page responses kept in the row when the request has no destination (Legible extension). */
  units: Array<{ totalPages?: number; batches: number[]; pages?: number; inline?: unknown[] }>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The operations table, which is also the job queue: `claim` takes the oldest unfinished job whose
 * lease is free or expired with one conditional UPDATE (the same statement on SQLite and
 * PostgreSQL), so of several nodes exactly one wins each job; every later write names the lease
 * holder, so a node that lost its lease cannot overwrite the new holder's progress.
 */
export function createOperationsRepository(db: Kysely<Database>) {
  return {
    /** A new CREATED job, written with its audit row (`details`: what was asked, never secrets). */
    async create(
      actor: Actor,
      input: {
        operationId: string;
        projectId: string;
        accountId: string;
        keyId?: string;
        location?: string;
        kind: OperationKind;
        request: string;
        totalPages?: number;
      },
      details: Record<string, unknown>,
    ): Promise<OperationRow> {
      const now = iso(Date.now());
      const row: OperationRow = {
        operation_id: input.operationId,
        project_id: input.projectId,
        account_id: input.accountId,
        key_id: input.keyId ?? null,
        location: input.location ?? null,
        kind: input.kind,
        state: 'CREATED',
        request: input.request,
        progress: JSON.stringify({ units: [] } satisfies JobProgress),
        total_pages: input.totalPages ?? null,
        done_pages: 0,
        response: null,
        error: null,
        cancel_requested: 0,
        lease_owner: null,
        lease_expires: null,
        attempts: 0,
        create_time: now,
        update_time: now,
        end_time: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('vision_operations').values(row).execute();
        await recordAudit(trx, {
          ...actor,
          action: 'operation.create',
          resourceType: 'operation',
          resourceId: row.operation_id,
          projectId: row.project_id,
          details,
        });
      });
      return row;
    },

    async get(projectId: string, operationId: string): Promise<OperationRow | undefined> {
      return db
        .selectFrom('vision_operations')
        .selectAll()
        .where('operation_id', '=', operationId)
        .where('project_id', '=', projectId)
        .executeTakeFirst();
    },

    async list(projectId: string, pageSize: number, before?: string): Promise<OperationRow[]> {
      let query = db.selectFrom('vision_operations').selectAll().where('project_id', '=', projectId);
      if (before) query = query.where('operation_id', '<', before);
      return query.orderBy('operation_id', 'desc').limit(pageSize).execute();
    },

    async claim(owner: string, leaseMs: number): Promise<OperationRow | undefined> {
      const now = Date.now();
      const candidates = await db
        .selectFrom('vision_operations')
        .select('operation_id')
        .where('state', 'in', ['CREATED', 'RUNNING'])
        .where((eb) => eb.or([eb('lease_expires', 'is', null), eb('lease_expires', '<', iso(now))]))
        .orderBy('create_time')
        .limit(5)
        .execute();
      for (const { operation_id } of candidates) {
        const result = await db
          .updateTable('vision_operations')
          .set((eb) => ({ lease_owner: owner, lease_expires: iso(now + leaseMs), attempts: eb('attempts', '+', 1) }))
          .where('operation_id', '=', operation_id)
          .where('state', 'in', ['CREATED', 'RUNNING'])
          .where((eb) => eb.or([eb('lease_expires', 'is', null), eb('lease_expires', '<', iso(now))]))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) {
          return db.selectFrom('vision_operations').selectAll().where('operation_id', '=', operation_id).executeTakeFirst();
        }
      }
      return undefined;
    },

    /** Extends the lease; false when this node no longer holds it (or the job was cancelled). */
    async renew(operationId: string, owner: string, leaseMs: number): Promise<{ held: boolean; cancelRequested: boolean }> {
      const result = await db
        .updateTable('vision_operations')
        .set({ lease_expires: iso(Date.now() + leaseMs) })
        .where('operation_id', '=', operationId)
        .where('lease_owner', '=', owner)
        .where('state', 'in', ['CREATED', 'RUNNING'])
        .executeTakeFirst();
      const row = await db
        .selectFrom('vision_operations')
        .select('cancel_requested')
        .where('operation_id', '=', operationId)
        .executeTakeFirst();
      return { held: Number(result.numUpdatedRows) === 1, cancelRequested: row?.cancel_requested === 1 };
    },

    async saveProgress(
      operationId: string,
      owner: string,
      update: { progress: JobProgress; donePages: number; totalPages?: number },
    ): Promise<boolean> {
      const result = await db
        .updateTable('vision_operations')
        .set({
          state: 'RUNNING',
          progress: JSON.stringify(update.progress),
          done_pages: update.donePages,
          ...(update.totalPages !== undefined ? { total_pages: update.totalPages } : {}),
          update_time: iso(Date.now()),
        })
        .where('operation_id', '=', operationId)
        .where('lease_owner', '=', owner)
        .where('state', 'in', ['CREATED', 'RUNNING'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Progress per page between batches; only ever forward, and only by the lease holder. */
    async setDonePages(operationId: string, owner: string, donePages: number): Promise<void> {
      await db
        .updateTable('vision_operations')
        .set({ done_pages: donePages, state: 'RUNNING', update_time: iso(Date.now()) })
        .where('operation_id', '=', operationId)
        .where('lease_owner', '=', owner)
        .where('state', 'in', ['CREATED', 'RUNNING'])
        .where('done_pages', '<', donePages)
        .execute();
    },

    async finish(
      operationId: string,
      owner: string,
      end: { state: Extract<OperationState, 'DONE' | 'CANCELLED'>; response?: unknown; error?: unknown },
    ): Promise<boolean> {
      const now = iso(Date.now());
      const result = await db
        .updateTable('vision_operations')
        .set({
          state: end.state,
          response: end.response === undefined ? null : JSON.stringify(end.response),
          error: end.error === undefined ? null : JSON.stringify(end.error),
          lease_owner: null,
          lease_expires: null,
          update_time: now,
          end_time: now,
        })
        .where('operation_id', '=', operationId)
        .where('lease_owner', '=', owner)
        .where('state', 'in', ['CREATED', 'RUNNING'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Gives a job back to the queue at once (this node is shutting down), keeping its progress. */
    async release(operationId: string, owner: string): Promise<void> {
      await db
        .updateTable('vision_operations')
        .set({ lease_owner: null, lease_expires: null })
        .where('operation_id', '=', operationId)
        .where('lease_owner', '=', owner)
        .execute();
    },

    async requestCancel(actor: Actor, projectId: string, operationId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('vision_operations')
          .set({ cancel_requested: 1, update_time: iso(Date.now()) })
          .where('operation_id', '=', operationId)
          .where('project_id', '=', projectId)
          .executeTakeFirst();
        await recordAudit(trx, { ...actor, action: 'operation.cancel', resourceType: 'operation', resourceId: operationId, projectId });
        return Number(result.numUpdatedRows) === 1;
      });
    },

    /** Deletes finished operations that ended before `before` (retention). */
    async purgeEndedBefore(before: Date): Promise<number> {
      const result = await db
        .deleteFrom('vision_operations')
        .where('end_time', 'is not', null)
        .where('end_time', '<', before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type OperationsRepository = ReturnType<typeof createOperationsRepository>;
