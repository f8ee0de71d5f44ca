import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { LATENCY_COLUMNS, latencyBucket } from './latency-histogram.ts';

export type UsageOutcome = 'ok' | 'client_error' | 'server_error';

/** The usage bucket of requests made without an API key: the console playground (account token). */
export const CONSOLE_KEY = 'console';
/** The usage bucket of requests with no key recorded: another credential, or counted before keys were. */
export const NO_KEY = 'none';

export interface UsageIncrement {
  projectId: string;
  api: string;
  /** The API key's id, or `CONSOLE_KEY` / `NO_KEY`. */
  key: string;
  /** When the request was answered; counted on its UTC day. */
  at: Date;
  outcome: UsageOutcome;
  requests: number;
  images: number;
  /** Time to answer, for a request that read images; absent for requests not sampled. */
  latencyMs?: number;
}

export interface UsageRow {
  date: string;
  api: string;
  /** Only when listed by key. */
  key?: string;
  outcome: UsageOutcome;
  requests: number;
  images: number;
  /** Latency histogram, one count per `LATENCY_COLUMNS` bucket. */
  latency: number[];
}

export interface KeyName {
  displayName: string;
  revoked: boolean;
}

/** HTTP status → usage outcome. */
export function outcomeOf(statusCode: number): UsageOutcome {
  if (statusCode >= 500) return 'server_error';
  if (statusCode >= 400) return 'client_error';
  return 'ok';
}

/**
 * Durable usage counters. `record` is one `INSERT … ON CONFLICT DO UPDATE` (SQLite ≥ 3.24 and
 * PostgreSQL share the syntax), so concurrent requests on any node add up without a read; the
 * latency sample is a 1 in its bucket's column of the same row, so it costs no extra write.
 */
export function createUsageRepository(db: Kysely<Database>) {
  return {
    async record(inc: UsageIncrement): Promise<void> {
      const sampled = inc.latencyMs === undefined ? -1 : latencyBucket(inc.latencyMs);
      const histogram = Object.fromEntries(LATENCY_COLUMNS.map((column, i) => [column, i === sampled ? 1 : 0]));
      await db
        .insertInto('usage_counters')
        .values({
          project_id: inc.projectId,
          api: inc.api,
          day: inc.at.toISOString().slice(0, 10),
          key_id: inc.key,
          outcome: inc.outcome,
          requests: inc.requests,
          images: inc.images,
          ...(histogram as Record<(typeof LATENCY_COLUMNS)[number], number>),
        })
        .onConflict((oc) =>
          oc.columns(['project_id', 'day', 'api', 'key_id', 'outcome']).doUpdateSet((eb) => ({
            requests: eb('usage_counters.requests', '+', eb.ref('excluded.requests')),
            images: eb('usage_counters.images', '+', eb.ref('excluded.images')),
            // Only the sampled bucket changes; adding 0 to the others would be a no-op write of the same row.
            ...(sampled >= 0 ? { [LATENCY_COLUMNS[sampled]]: eb(`usage_counters.${LATENCY_COLUMNS[sampled]}`, '+', 1) } : {}),
          })),
        )
        .execute();
    },

    /**
     * Counters of one project between two UTC days (inclusive), by date, api and outcome (summed
     * over keys), or by date, api, key and outcome with `byKey`.
     */
    async list(projectId: string, from: string, to: string, options: { byKey?: boolean } = {}): Promise<UsageRow[]> {
      const groups = options.byKey ? (['day', 'api', 'key_id', 'outcome'] as const) : (['day', 'api', 'outcome'] as const);
      let query = db
        .selectFrom('usage_counters')
        .select(groups)
        .select((eb) => [
          eb.fn.sum<number | string>('requests').as('requests'),
          eb.fn.sum<number | string>('images').as('images'),
          ...LATENCY_COLUMNS.map((column) => eb.fn.sum<number | string>(column).as(column)),
        ])
        .where('project_id', '=', projectId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .groupBy(groups);
      for (const column of groups) query = query.orderBy(column);
      const rows = await query.execute();
      return rows.map((r) => {
        const row = r as unknown as Record<string, string | number>;
        return {
          date: String(row.day),
          api: String(row.api),
          ...(options.byKey ? { key: String(row.key_id) } : {}),
          outcome: row.outcome as UsageOutcome,
          requests: Number(row.requests),
          images: Number(row.images),
          latency: LATENCY_COLUMNS.map((column) => Number(row[column])),
        };
      });
    },

    /**
     * Display names of a project's API keys, revoked ones included (their usage stays). Read from
     * `api_keys` here rather than key by key through its repository: one read for the whole list.
     */
    async keyNames(projectId: string, keyIds: string[]): Promise<Map<string, KeyName>> {
      if (keyIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('api_keys')
        .select(['key_id', 'display_name', 'delete_time'])
        .where('project_id', '=', projectId)
        .where('key_id', 'in', keyIds)
        .execute();
      return new Map(rows.map((r) => [r.key_id, { displayName: r.display_name, revoked: r.delete_time !== null }]));
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
