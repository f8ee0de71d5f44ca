/**
 * Request and image counters per project, api, UTC day and outcome; one row per combination,
 * incremented with an upsert after each response is decided.
 */
export interface UsageCountersTable {
  project_id: string;
  api: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** `ok` (2xx) | `client_error` (4xx) | `server_error` (5xx) */
  outcome: string;
  /** bigint in PostgreSQL (read back as a string there): convert with `Number`. */
  requests: number | string;
  images: number | string;
}

export interface UsageTables {
  usage_counters: UsageCountersTable;
}
