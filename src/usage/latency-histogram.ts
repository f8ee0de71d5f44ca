/**
 * Request latency as a fixed histogram (docs/decisions.md "Usage by key and latency"): counts per
 * bucket add up across requests, nodes and days with plain SQL `+`/`SUM`, so percentiles over any
 * range come from one read. Bucket `i` counts latencies in (`LATENCY_BOUNDS_MS[i-1]`,
 * `LATENCY_BOUNDS_MS[i]`] ms; the last bucket counts everything above the last bound.
 *
 * The bounds are the columns of `usage_counters` (migration 0006): changing them needs a migration.
 */
export const LATENCY_BOUNDS_MS = [
  10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10_000, 15_000, 20_000, 30_000, 50_000, 70_000,
] as const;

export type LatencyColumn = `lat_${(typeof LATENCY_BOUNDS_MS)[number]}` | 'lat_inf';

/** The histogram's columns, in bucket order. */
export const LATENCY_COLUMNS: readonly LatencyColumn[] = [...LATENCY_BOUNDS_MS.map((b) => `lat_${b}` as const), 'lat_inf'];

/** The bucket a latency falls in (its index in `LATENCY_COLUMNS`). */
export function latencyBucket(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

export interface LatencyPercentiles {
  /** Requests the percentiles are computed from. */
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/**
 * The `q` quantile of a histogram, interpolated linearly inside its bucket (as Prometheus'
 * `histogram_quantile` does); a quantile in the open last bucket is reported as the last bound.
 */
export function latencyQuantile(counts: readonly number[], q: number): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    if (c > 0 && below + c >= rank) {
      if (i >= LATENCY_BOUNDS_MS.length) return LATENCY_BOUNDS_MS.at(-1)!;
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1];
      return lower + (LATENCY_BOUNDS_MS[i] - lower) * ((rank - below) / c);
    }
    below += c;
  }
  return 0;
}

/** p50/p95/p99 of a histogram, rounded to whole milliseconds; undefined without samples. */
export function latencyPercentiles(counts: readonly number[]): LatencyPercentiles | undefined {
  const samples = counts.reduce((a, b) => a + b, 0);
  if (samples === 0) return undefined;
  const at = (q: number) => Math.round(latencyQuantile(counts, q));
  return { samples, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99) };
}

/** Bucket-wise sum of histograms. */
export function addLatency(into: number[], counts: readonly number[]): number[] {
  for (let i = 0; i < counts.length; i++) into[i] = (into[i] ?? 0) + counts[i];
  return into;
}
