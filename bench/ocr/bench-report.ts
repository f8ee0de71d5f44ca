import { f1, recall, sumCounts, type MatchCount } from './bag-of-words.ts';
import { oneMinusCer, type CerCount } from './char-error-rate.ts';
import type { EngineImageResult, EngineRun } from './engine-run.ts';
import type { ImageScore } from './score-image.ts';

export interface ScoredRun {
  run: EngineRun;
  scores: ImageScore[];
}

const ROW_ORDER = ['scene', 'receipt', 'form', 'document'];

// biome-ignore lint/suspicious/noShadowRestrictedNames: a module function, not Object.prototype.valueOf.
export function valueOf(scores: readonly ImageScore[]): number {
  if (scores.length === 0) return NaN;
  const s = scores[0];
  if (s.metric === '1 − CER') return oneMinusCer(scores.map((x) => (x as { cer: CerCount }).cer));
  const sum = sumCounts(scores.map((x) => (x as { match: MatchCount }).match));
  return s.metric === 'recall' ? recall(sum) : f1(sum);
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const pct = (v: number) => (Number.isFinite(v) ? (100 * v).toFixed(1) : '–');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '–');

/** The two halves of ocr-dev (its README): develop on `tune`, confirm on `check`. */
export const SPLITS = ['tune', 'check'] as const;

/**
 * Markdown: one row per kind with each engine's score on `tune` and on `check` side by side (only the
 * splits present), Legible / Tesseract over both when both ran, and the median latency; then latency,
 * wall time, images/s and peak RSS per engine.
 */
export function reportMarkdown(runs: readonly ScoredRun[], rowsOfImages: readonly string[], splitsOfImages: readonly string[]): string {
  const rows = [...new Set(rowsOfImages)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const splits = SPLITS.filter((s) => splitsOfImages.includes(s));
  const names = runs.map((r) => r.run.engine);
  const both = runs.length === 2;
  const scoreColumns = names.flatMap((n) => splits.map((s) => `${n} ${s}`));
  const out: string[] = [
    `| kind | images (${splits.join('/')}) | metric | ${scoreColumns.join(' | ')} |${both ? ` ${names[0]} / ${names[1]} |` : ''} ${names.map((n) => `median ms ${n}`).join(' | ')} |`,
    `| --- | ---: | --- |${' ---: |'.repeat(scoreColumns.length + runs.length + (both ? 1 : 0))}`,
  ];
  for (const row of rows) {
    const idx = rowsOfImages.flatMap((r, i) => (r === row ? [i] : []));
    const inSplit = (s: string) => idx.filter((i) => splitsOfImages[i] === s);
    const perSplit = runs.flatMap((run) => splits.map((s) => valueOf(inSplit(s).map((i) => run.scores[i]))));
    const overall = runs.map((run) => valueOf(idx.map((i) => run.scores[i])));
    const medians = runs.map((s) => median(idx.map((i) => s.run.results[i].latencyMs)));
    out.push(
      `| ${row} | ${splits.map((s) => inSplit(s).length).join('/')} | ${runs[0].scores[idx[0]].metric} | ${perSplit.map(pct).join(' | ')} |` +
        `${both ? ` ${ratio(overall[0], overall[1])} |` : ''} ${medians.map(ms).join(' | ')} |`,
    );
  }
  out.push(
    '',
    '| engine | images | failed | empty | median latency | wall time | images/s | peak RSS | final RSS |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const { run } of runs) {
    const failed = run.results.filter((r) => r.error).length;
    const empty = run.results.filter((r) => !r.error && r.text.trim() === '').length;
    out.push(
      `| ${run.engine} | ${run.results.length} | ${failed} | ${empty} | ${ms(median(run.results.map((r) => r.latencyMs)))} ms | ` +
        `${(run.wallMs / 1000).toFixed(1)} s | ${(run.results.length / (run.wallMs / 1000)).toFixed(2)} | ${(run.peakRssBytes / 2 ** 20).toFixed(0)} MB | ` +
        `${run.finalRssBytes === undefined ? '–' : `${(run.finalRssBytes / 2 ** 20).toFixed(0)} MB`} |`,
    );
  }
  if (both) out.push('', `Wall time ${names[0]} / ${names[1]}: ${ratio(runs[0].run.wallMs, runs[1].run.wallMs)}`);
  return out.join('\n');
}

/** `--details`: one row per image, its split and each engine's score on it (×100). */
export function pagesMarkdown(runs: readonly ScoredRun[], records: ReadonlyArray<{ id: string; split?: string }>): string {
  const out = [
    `| image | split | metric | ${runs.map((r) => r.run.engine).join(' | ')} |`,
    `| --- | --- | --- |${' ---: |'.repeat(runs.length)}`,
  ];
  records.forEach((r, i) => {
    const metric = runs[0].scores[i].metric;
    out.push(`| ${r.id} | ${r.split ?? '–'} | ${metric} | ${runs.map((s) => pct(valueOf([s.scores[i]]))).join(' | ')} |`);
  });
  return out.join('\n');
}

/** Entries of the pipeline's timings that are counts, not milliseconds. */
const COUNTS = new Set(['lines', 'classified']);

/** `--profile`: the engine's per-stage timings summed over the set. */
export function profileMarkdown(run: EngineRun): string {
  const totals = new Map<string, number>();
  for (const r of run.results) for (const [k, v] of Object.entries(r.timings ?? {})) totals.set(k, (totals.get(k) ?? 0) + v);
  const latency = run.results.reduce((s, r) => s + r.latencyMs, 0);
  const n = run.results.length || 1;
  const out = ['| stage | total | per image | share of latency |', '| --- | ---: | ---: | ---: |'];
  for (const [k, v] of [...totals.entries()].filter(([k]) => !COUNTS.has(k)).sort((a, b) => b[1] - a[1])) {
    out.push(`| ${k} | ${v.toFixed(0)} | ${(v / n).toFixed(1)} | ${latency ? ((100 * v) / latency).toFixed(1) : '–'}% |`);
  }
  const counts = [...COUNTS].filter((k) => totals.has(k)).map((k) => `${k} ${((totals.get(k) ?? 0) / n).toFixed(1)}`);
  if (counts.length > 0) out.push('', `Per image: ${counts.join(', ')} (text lines detected, lines the direction classifier read).`);
  return out.join('\n');
}

function rank(row: string): number {
  const k = ROW_ORDER.indexOf(row.split(' ')[0]);
  return k < 0 ? ROW_ORDER.length : k;
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');

/**
 * `--ablate`: for each text fix, each kind's score on `tune` and `check` with every fix (as run) and
 * with that one left out; Δ is what the fix is worth (positive: it helps). Kinds it changes nowhere
 * are left out.
 */
export function ablationMarkdown<R extends { split?: string }>(
  records: readonly R[],
  run: EngineRun,
  score: (r: R, out: EngineImageResult) => ImageScore,
): string {
  const fixes = [...new Set(run.results.flatMap((r) => Object.keys(r.without ?? {})))];
  const withAll = records.map((r, i) => score(r, run.results[i]));
  const rows = [...new Set(withAll.map((s) => s.row))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const out = [
    '| fix | kind | tune with | tune without | Δ tune | check with | check without | Δ check |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const delta = (a: number, b: number) =>
    Number.isFinite(a) && Number.isFinite(b) ? `${a >= b ? '+' : ''}${(100 * (a - b)).toFixed(2)}` : '–';
  for (const fix of fixes) {
    const without = records.map((r, i) => {
      const alt = run.results[i].without?.[fix];
      return alt ? score(r, { ...run.results[i], ...alt }) : withAll[i];
    });
    let changed = false;
    for (const row of rows) {
      const cells = SPLITS.flatMap((split) => {
        const idx = records.flatMap((r, i) => (withAll[i].row === row && r.split === split ? [i] : []));
        const a = valueOf(idx.map((i) => withAll[i]));
        const b = valueOf(idx.map((i) => without[i]));
        return [pct(a), pct(b), delta(a, b)];
      });
      if (cells[2] === '+0.00' && cells[5] === '+0.00') continue;
      changed = true;
      out.push(`| ${fix} | ${row} | ${cells.join(' | ')} |`);
    }
    if (!changed) out.push(`| ${fix} | (no change anywhere) | | | | | | |`);
  }
  return out.join('\n');
}
