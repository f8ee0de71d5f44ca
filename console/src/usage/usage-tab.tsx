import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { apiPath } from '../api/api-client.ts';
import { apisApi } from '../api/endpoints.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { EmptyState, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { formatNumber } from '../ui/format.ts';
import { BarChart } from './bar-chart.tsx';
import type { UsageResponse } from '../api/api-types.ts';
import { lastDays, toSeries } from './usage-series.ts';

const RANGES = [7, 30, 90];

/** Usage per api over time (requests by outcome, images, errors) from `GET /api/projects/{p}/usage`. */
export function UsageTab({ projectId }: { projectId: string }): JSX.Element {
  const { api } = useConsole();
  const [range, setRange] = useState(30);
  const usage = useResource(async () => {
    const { from, to } = lastDays(range);
    const [data, apis] = await Promise.all([
      api.get<UsageResponse>(`${apiPath`/api/projects/${projectId}/usage`}?from=${from}&to=${to}`),
      apisApi.list(api, projectId).catch(() => []),
    ]);
    const enabled = apis.filter((a) => a.state === 'ENABLED').map((a) => a.api);
    const titles = new Map(apis.map((a) => [a.api, a.title ?? a.api]));
    return { ...data, titles, series: toSeries(data.usage, data.from, data.to, enabled) };
  }, [projectId, range]);
  const series = usage.data?.series ?? [];

  return (
    <>
      <div class="section-header">
        <div>
          <h2 class="section-title">Usage</h2>
          <p class="muted">Requests and images per UTC day, by API. Rate-limited and invalid requests count as client errors.</p>
        </div>
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
        <div class="card"><SkeletonRows rows={4} label="Loading usage" /></div>
      ) : series.length === 0 && !usage.error ? (
        <div class="card">
          <EmptyState icon="chart" title="No usage yet">Enable an API and call it (or try the OCR playground): requests show up here within seconds.</EmptyState>
        </div>
      ) : (
        series.map((s) => (
          <section class="usage-api" key={s.api} aria-labelledby={`usage-${s.api}`}>
            <h3 id={`usage-${s.api}`} class="usage-api-title">
              {usage.data?.titles.get(s.api) ?? s.api} <code class="mono muted">{s.api}</code>
            </h3>
            <div class="stats">
              <div class="stat"><span class="stat-label">Requests</span><span class="stat-value">{formatNumber(s.totals.requests)}</span></div>
              <div class="stat"><span class="stat-label">Images</span><span class="stat-value">{formatNumber(s.totals.images)}</span></div>
              <div class="stat"><span class="stat-label">Errors</span><span class="stat-value">{formatNumber(s.totals.errors)}</span></div>
              <div class="stat">
                <span class="stat-label">Error rate</span>
                <span class="stat-value">{s.totals.requests ? `${((100 * s.totals.errors) / s.totals.requests).toFixed(1)}%` : '—'}</span>
              </div>
            </div>
            <div class="card chart-card chart-wide">
              <BarChart title="Requests" width={960} height={220} days={s.days} layers={[
                { label: 'Succeeded', tone: 'fill-ok', values: s.ok },
                { label: 'Client errors', tone: 'fill-warn', values: s.clientErrors },
                { label: 'Server errors', tone: 'fill-bad', values: s.serverErrors },
              ]} />
            </div>
            <div class="chart-grid-2">
              <div class="card chart-card">
                <BarChart title="Images" days={s.days} layers={[{ label: 'Images', tone: 'fill-accent', values: s.images }]} />
              </div>
              <div class="card chart-card">
                <BarChart title="Errors" days={s.days} layers={[
                  { label: 'Client errors (4xx)', tone: 'fill-warn', values: s.clientErrors },
                  { label: 'Server errors (5xx)', tone: 'fill-bad', values: s.serverErrors },
                ]} />
              </div>
            </div>
          </section>
        ))
      )}
    </>
  );
}
