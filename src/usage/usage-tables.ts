import type { LatencyColumn } from './latency-histogram.ts';

/**
 * Request and image counters per project, api, UTC day, API key and outcome, with a latency
 * histogram; one row per combination, incremented with an upsert after each response is decided.
 */
export type UsageCountersTable = {
  project_id: string;
  api: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The API key's id, or `console` (the playground, account token) or `none` (no key recorded). */
  key_id: string;
  /** `ok` (2xx) | `client_error` (4xx) | `server_error` (5xx) */
  outcome: string;
  /** bigint in PostgreSQL (read back as a string there): convert with `Number`. */
  requests: number | string;
  images: number | string;
} & {
  /** Requests that read images, per latency bucket (src/usage/latency-histogram.ts); bigint. */
  [column in LatencyColumn]: number | string;
};

export interface UsageTables {
  usage_counters: UsageCountersTable;
}
