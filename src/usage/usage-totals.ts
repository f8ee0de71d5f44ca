import type { Static } from '@sinclair/typebox';
import { addLatency, latencyPercentiles } from './latency-histogram.ts';
import type { KeyName, UsageRow } from './usage-repository.ts';
import type { UsageEntry, UsageKeyTotal, UsageTotal } from './usage-schemas.ts';

type Entry = Static<typeof UsageEntry>;
type Total = Static<typeof UsageTotal>;
type KeyTotal = Static<typeof UsageKeyTotal>;

/** A stored row as the API shows it: the histogram becomes percentiles. */
export function toUsageEntry(row: UsageRow): Entry {
  const latency = latencyPercentiles(row.latency);
  return {
    date: row.date,
    api: row.api,
    ...(row.key !== undefined ? { key: row.key } : {}),
    outcome: row.outcome,
    requests: row.requests,
    images: row.images,
    ...(latency ? { latency } : {}),
  };
}

interface Sum {
  requests: number;
  images: number;
  errors: number;
  /** Histogram of the successful requests. */
  okLatency: number[];
}

function add(sums: Map<string, Sum>, id: string, row: UsageRow): void {
  const sum = sums.get(id) ?? { requests: 0, images: 0, errors: 0, okLatency: [] };
  sum.requests += row.requests;
  sum.images += row.images;
  if (row.outcome === 'ok') addLatency(sum.okLatency, row.latency);
  else sum.errors += row.requests;
  sums.set(id, sum);
}

function counts(sum: Sum): Pick<Total, 'requests' | 'images' | 'errors' | 'latency'> {
  const latency = latencyPercentiles(sum.okLatency);
  return { requests: sum.requests, images: sum.images, errors: sum.errors, ...(latency ? { latency } : {}) };
}

/**
 * Totals per api over all rows, and per key inside each api when the rows carry keys (`names`
 * gives API keys their display names). Histograms are added bucket by bucket before percentiles
 * are taken: percentiles of days or keys cannot be combined afterwards.
 */
export function usageTotals(rows: UsageRow[], names?: Map<string, KeyName>): Total[] {
  const apis = new Map<string, Sum>();
  const keys = new Map<string, Map<string, Sum>>();
  for (const row of rows) {
    add(apis, row.api, row);
    if (row.key === undefined) continue;
    if (!keys.has(row.api)) keys.set(row.api, new Map());
    add(keys.get(row.api)!, row.key, row);
  }
  return [...apis.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([api, sum]) => {
      const perKey = keys.get(api);
      if (!perKey) return { api, ...counts(sum) };
      const breakdown: KeyTotal[] = [...perKey.entries()]
        .sort(([ka, a], [kb, b]) => b.requests - a.requests || ka.localeCompare(kb))
        .map(([key, keySum]) => {
          const name = names?.get(key);
          return { key, ...(name ? { displayName: name.displayName, ...(name.revoked ? { revoked: true } : {}) } : {}), ...counts(keySum) };
        });
      return { api, ...counts(sum), keys: breakdown };
    });
}
