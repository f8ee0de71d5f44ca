import type { JSX } from 'preact';
import { niceScale } from './usage-series.ts';
import { formatNumber } from '../ui/format.ts';

export interface BarLayer {
  label: string;
  /** A CSS class giving the fill colour (`fill-ok`, `fill-warn`, …). */
  tone: string;
  values: number[];
}

const PAD = { top: 12, right: 8, bottom: 26, left: 40 };

function shortDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * A stacked bar chart in plain SVG, one bar per day. Each bar has a `<title>` (hover tooltip); the
 * same numbers are in a visually hidden table for screen readers.
 */
export function BarChart(props: { title: string; days: string[]; layers: BarLayer[]; width?: number; height?: number }): JSX.Element {
  const { days, layers } = props;
  const W = props.width ?? 480;
  const H = props.height ?? 190;
  const totals = days.map((_, i) => layers.reduce((sum, l) => sum + l.values[i], 0));
  const grand = totals.reduce((a, b) => a + b, 0);
  const scale = niceScale(Math.max(...totals, 0));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, days.length);
  const barW = Math.max(2, Math.min(28, slot * 0.68));
  const y = (v: number) => PAD.top + innerH - (v / scale.max) * innerH;
  const labelEvery = Math.ceil(days.length / 8);

  return (
    <figure class="chart">
      <figcaption class="chart-head">
        <span class="chart-title">{props.title}</span>
        <span class="chart-total">{formatNumber(grand)}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        class="chart-svg"
        role="img"
        aria-label={`${props.title}: ${formatNumber(grand)} in ${days.length} days`}
      >
        {scale.ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} class="chart-grid" />
            <text x={PAD.left - 8} y={y(t) + 4} class="chart-axis" text-anchor="end">
              {formatNumber(t)}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          let base = 0;
          return (
            <g key={day} class="chart-bar">
              <title>{`${shortDay(day)}: ${layers.map((l) => `${l.label} ${formatNumber(l.values[i])}`).join(', ')}`}</title>
              <rect x={PAD.left + i * slot} y={PAD.top} width={slot} height={innerH} class="chart-hit" />
              {layers.map((l) => {
                const v = l.values[i];
                if (v <= 0) return null;
                const top = y(base + v);
                const h = y(base) - top;
                base += v;
                return <rect key={l.label} x={x} y={top} width={barW} height={Math.max(1, h)} rx={2} class={l.tone} />;
              })}
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={H - 8} class="chart-axis" text-anchor="middle">
                  {shortDay(day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {layers.length > 1 && (
        <div class="chart-legend" aria-hidden="true">
          {layers.map((l) => (
            <span key={l.label}>
              <i class={`swatch ${l.tone}`} />
              {l.label}
            </span>
          ))}
        </div>
      )}
      {/* The hidden box is a div: a table never shrinks below its content, so a 1px sr-only table would
          still widen the page (on a phone, by ~40px of sideways scroll). */}
      <div class="sr-only">
        <table>
          <caption>{props.title} per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {layers.map((l) => (
                <th scope="col" key={l.label}>
                  {l.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d}>
                <th scope="row">{d}</th>
                {layers.map((l) => (
                  <td key={l.label}>{l.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
