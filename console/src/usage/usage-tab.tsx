import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { apiPath } from '../api/api-client.ts';
import { apisApi } from '../api/endpoints.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { Badge, EmptyState, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { formatNumber } from '../ui/format.ts';
import { BarChart } from './bar-chart.tsx';
import type { UsageResponse, UsageTotal } from '../api/api-types.ts';
import { formatLatency, lastDays, toSeries, usageKeyLabel } from './usage-series.ts';

const RANGES = [7, 30, 90];

/**
 * Usage per api over time (requests by outcome, images, errors), latency percentiles and a
 * breakdown by API key, from `GET /api/projects/{p}/usage?groupBy=key`.
 */
export function UsageTab({ projectId }: { projectId: string }): JSX.Element {
  const { api } = useConsole();
  const [range, setRange] = useState(30);
  const usage = useResource(async () => {
    const { from, to } = lastDays(range);
    const [data, apis] = await Promise.all([
      api.get<UsageResponse>(`${apiPath`/api/projects/${projectId}/usage`}?from=${from}&to=${to}&groupBy=key`),
      apisApi.list(api, projectId).catch(() => []),
    ]);
    const enabled = apis.filter((a) => a.state === 'ENABLED').map((a) => a.api);
    const titles = new Map(apis.map((a) => [a.api, a.title ?? a.api]));
    const totals = new Map(data.totals.map((total) => [total.api, total]));
    return { ...data, titles, totals, series: toSeries(data.usage, data.from, data.to, enabled) };
  }, [projectId, range]);
  const series = usage.data?.series ?? [];

  return (
    <>
      <div class="section-header">
        <div>
          <h2 class="section-title">Usage</h2>
          <p class="muted">
            Requests and images per UTC day, by API and API key. Rate-limited and invalid requests count as client errors.
          </p>
        </div>
        {/* biome-ignore lint/a11y/useSemanticElements: a segmented control of buttons, not a form fieldset */}
        <div class="segmented" role="group" aria-label="Time range">
          {RANGES.map((r) => (
            <button key={r} type="button" class={range === r ? 'active' : ''} aria-pressed={range === r} onClick={() => setRange(r)}>
              {r} days
            </button>
          ))}
        </div>
      </div>
      <ErrorBanner error={usage.error} onRetry={usage.reload} />
      {usage.loading && !usage.data ? (
        <div class="card">
          <SkeletonRows rows={4} label="Loading usage" />
        </div>
      ) : series.length === 0 && !usage.error ? (
        <div class="card">
          <EmptyState icon="chart" title="No usage yet">
            Enable an API and call it (or try the OCR playground): requests show up here within seconds.
          </EmptyState>
        </div>
      ) : (
        series.map((s) => (
          <section class="usage-api" key={s.api} aria-labelledby={`usage-${s.api}`}>
            <h3 id={`usage-${s.api}`} class="usage-api-title">
              {usage.data?.titles.get(s.api) ?? s.api} <code class="mono muted">{s.api}</code>
            </h3>
            <div class="stats">
              <div class="stat">
                <span class="stat-label">Requests</span>
                <span class="stat-value">{formatNumber(s.totals.requests)}</span>
              </div>
              <div class="stat">
                <span class="stat-label">Images</span>
                <span class="stat-value">{formatNumber(s.totals.images)}</span>
              </div>
              <div class="stat">
                <span class="stat-label">Errors</span>
                <span class="stat-value">{formatNumber(s.totals.errors)}</span>
              </div>
              <div class="stat">
                <span class="stat-label">Error rate</span>
                <span class="stat-value">{s.totals.requests ? `${((100 * s.totals.errors) / s.totals.requests).toFixed(1)}%` : '—'}</span>
              </div>
            </div>
            <LatencyStats total={usage.data?.totals.get(s.api)} />
            <KeyBreakdown api={s.api} total={usage.data?.totals.get(s.api)} />
            <div class="card chart-card chart-wide">
              <BarChart
                title="Requests"
                width={960}
                height={220}
                days={s.days}
                layers={[
                  { label: 'Succeeded', tone: 'fill-ok', values: s.ok },
                  { label: 'Client errors', tone: 'fill-warn', values: s.clientErrors },
                  { label: 'Server errors', tone: 'fill-bad', values: s.serverErrors },
                ]}
              />
            </div>
            <div class="chart-grid-2">
              <div class="card chart-card">
                <BarChart title="Images" days={s.days} layers={[{ label: 'Images', tone: 'fill-accent', values: s.images }]} />
              </div>
              <div class="card chart-card">
                <BarChart
                  title="Errors"
                  days={s.days}
                  layers={[
                    { label: 'Client errors (4xx)', tone: 'fill-warn', values: s.clientErrors },
                    { label: 'Server errors (5xx)', tone: 'fill-bad', values: s.serverErrors },
                  ]}
                />
              </div>
            </div>
          </section>
        ))
      )}
    </>
  );
}

/** p50/p95/p99 over the range, of successful requests that read images. */
function LatencyStats({ total }: { total?: UsageTotal }): JSX.Element {
  const latency = total?.latency;
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: names the group of three figures for screen readers
    <div class="stats latency-stats" aria-label="Latency">
      <div class="stat">
        <span class="stat-label">Latency p50</span>
        <span class="stat-value">{formatLatency(latency?.p50Ms)}</span>
      </div>
      <div class="stat">
        <span class="stat-label">Latency p95</span>
        <span class="stat-value">{formatLatency(latency?.p95Ms)}</span>
      </div>
      <div class="stat">
        <span class="stat-label">Latency p99</span>
        <span class="stat-value">{formatLatency(latency?.p99Ms)}</span>
      </div>
      <div class="stat">
        <span class="stat-label" title="Successful requests that read images">
          Latency samples
        </span>
        <span class="stat-value">{formatNumber(latency?.samples ?? 0)}</span>
      </div>
    </div>
  );
}

/** Requests, errors and latency per API key (and the console playground) over the range. */
function KeyBreakdown({ api, total }: { api: string; total?: UsageTotal }): JSX.Element | null {
  const keys = total?.keys ?? [];
  if (keys.length === 0) return null;
  return (
    <div class="card table-card usage-keys">
      <table class="table">
        <caption class="usage-keys-caption">
          By API key <span class="muted">· latency of successful requests</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Images
            </th>
            <th scope="col" class="num">
              Errors
            </th>
            <th scope="col" class="num">
              p50
            </th>
            <th scope="col" class="num">
              p95
            </th>
            <th scope="col" class="num">
              p99
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={`${api}:${k.key}`} class={k.revoked ? 'row-muted' : ''}>
              <td class="usage-key">
                <div class="cell-title">
                  {usageKeyLabel(k)} {k.revoked && <Badge tone="danger">Revoked</Badge>}
                </div>
                {k.displayName !== undefined && <div class="cell-sub mono">{k.key}</div>}
              </td>
              <td class="num" data-label="Requests">
                {formatNumber(k.requests)}
              </td>
              <td class="num" data-label="Images">
                {formatNumber(k.images)}
              </td>
              <td class="num" data-label="Errors">
                {formatNumber(k.errors)}
              </td>
              <td class="num" data-label="p50">
                {formatLatency(k.latency?.p50Ms)}
              </td>
              <td class="num" data-label="p95">
                {formatLatency(k.latency?.p95Ms)}
              </td>
              <td class="num" data-label="p99">
                {formatLatency(k.latency?.p99Ms)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
