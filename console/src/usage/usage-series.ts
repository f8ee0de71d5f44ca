import type { UsageEntry } from '../api/api-types.ts';

/** The server's buckets for requests without an API key. */
const KEYLESS: Record<string, string> = { console: 'Console playground', none: 'No API key' };

/** How a usage key reads in the console: the key's name, or what the reserved buckets mean. */
export function usageKeyLabel(k: { key: string; displayName?: string }): string {
  return KEYLESS[k.key] ?? (k.displayName || k.key);
}

/** `850 ms`, `1.2 s`, `12 s`; `—` without samples. */
export function formatLatency(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return s < 9.95 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

export interface ApiSeries {
  api: string;
  days: string[];
  ok: number[];
  clientErrors: number[];
  serverErrors: number[];
  images: number[];
  totals: { requests: number; images: number; errors: number };
}

const DAY_MS = 86_400_000;

/** Every UTC day from `from` to `to` inclusive (`YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** The `from`/`to` query for the last `days` UTC days ending today. */
export function lastDays(days: number, now = Date.now()): { from: string; to: string } {
  return { from: new Date(now - (days - 1) * DAY_MS).toISOString().slice(0, 10), to: new Date(now).toISOString().slice(0, 10) };
}

/**
 * Dense per-day series for each api (days without traffic are zeros, so charts have a bar slot per
 * day). `apis` lists apis to show even without traffic (the enabled ones).
 */
export function toSeries(entries: UsageEntry[], from: string, to: string, apis: string[] = []): ApiSeries[] {
  const days = daysBetween(from, to);
  const index = new Map(days.map((d, i) => [d, i]));
  const names = [...new Set([...apis, ...entries.map((e) => e.api)])].sort();
  return names.map((api) => {
    const s: ApiSeries = {
      api,
      days,
      ok: days.map(() => 0),
      clientErrors: days.map(() => 0),
      serverErrors: days.map(() => 0),
      images: days.map(() => 0),
      totals: { requests: 0, images: 0, errors: 0 },
    };
    for (const e of entries) {
      const i = index.get(e.date);
      if (e.api !== api || i === undefined) continue;
      const bucket = e.outcome === 'ok' ? s.ok : e.outcome === 'client_error' ? s.clientErrors : s.serverErrors;
      bucket[i] += e.requests;
      s.images[i] += e.images;
      s.totals.requests += e.requests;
      s.totals.images += e.images;
      if (e.outcome !== 'ok') s.totals.errors += e.requests;
    }
    return s;
  });
}

/** A "nice" axis maximum and its ticks (1, 2, 2.5, 5 × 10^n), at least 1. */
export function niceScale(max: number, ticks = 4): { max: number; ticks: number[] } {
  if (max <= 0) return { max: 4, ticks: [0, 1, 2, 3, 4] };
  const raw = max / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const stepInt = Math.max(1, step);
  const top = Math.ceil(max / stepInt) * stepInt;
  const out: number[] = [];
  for (let v = 0; v <= top + 1e-9; v += stepInt) out.push(Math.round(v * 100) / 100);
  return { max: top, ticks: out };
}
