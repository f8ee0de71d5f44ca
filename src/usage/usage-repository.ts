import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';

export type UsageOutcome = 'ok' | 'client_error' | 'server_error';

export interface UsageIncrement {
  projectId: string;
  api: string;
  /** When the request was answered; counted on its UTC day. */
  at: Date;
  outcome: UsageOutcome;
  requests: number;
  images: number;
}

export interface UsageRow {
  date: string;
  api: string;
  outcome: UsageOutcome;
  requests: number;
  images: number;
}

/** HTTP status → usage outcome. */
export function outcomeOf(statusCode: number): UsageOutcome {
  if (statusCode >= 500) return 'server_error';
  if (statusCode >= 400) return 'client_error';
  return 'ok';
}

/**
 * Durable usage counters. `record` is one `INSERT … ON CONFLICT DO UPDATE` (SQLite ≥ 3.24 and
 * PostgreSQL share the syntax), so concurrent requests on any node add up without a read.
 */
export function createUsageRepository(db: Kysely<Database>) {
  return {
    async record(inc: UsageIncrement): Promise<void> {
      await db
        .insertInto('usage_counters')
        .values({
          project_id: inc.projectId,
          api: inc.api,
          day: inc.at.toISOString().slice(0, 10),
          outcome: inc.outcome,
          requests: inc.requests,
          images: inc.images,
        })
        .onConflict((oc) =>
          oc.columns(['project_id', 'day', 'api', 'outcome']).doUpdateSet((eb) => ({
            requests: eb('usage_counters.requests', '+', eb.ref('excluded.requests')),
            images: eb('usage_counters.images', '+', eb.ref('excluded.images')),
          })),
        )
        .execute();
    },

    /** Counters of one project between two UTC days (inclusive), by date, api, outcome. */
    async list(projectId: string, from: string, to: string): Promise<UsageRow[]> {
      const rows = await db
        .selectFrom('usage_counters')
        .select(['day', 'api', 'outcome', 'requests', 'images'])
        .where('project_id', '=', projectId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .orderBy('day')
        .orderBy('api')
        .orderBy('outcome')
        .execute();
      return rows.map((r) => ({
        date: r.day,
        api: r.api,
        outcome: r.outcome as UsageOutcome,
        requests: Number(r.requests),
        images: Number(r.images),
      }));
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
