import type { FrameBox } from './reading-frame.ts';

/** A text line as reading order sees it: its core box in the reading frame (centre ± height/2). */
export interface OrderItem {
  box: FrameBox;
  height: number;
  /** The item reads as figures (a table cell's number), not words. */
  figures?: boolean;
}

interface Interval {
  a: number;
  b: number;
}

/** Share of a line's height, top and bottom together, that may overlap the lines above and below it. */
const BAND_TRIM = 0.5;
/** Tuning, in units of the page's median line height. */
const MIN_GUTTER = 0.55; // a column gutter is wider than a word space
const MIN_COLUMN_LINE = 8; // text columns hold long lines; receipt prices and form values are short
const MIN_COLUMN_LINES = 3;
/** Text this many times the page's line height is a heading's, not a column's body. */
const HEADING = 1.5;
/** Columns of fewer rows must start flush (within `START_TOLERANCE`): see `startsFlush`. */
const SHORT_COLUMN = 6;
const START_TOLERANCE = 0.35;
/** A line crossing a gutter may float (a caption) when narrower than this share of the region. */
const MAX_FLOAT = 0.25;
/** A column's first line may be indented this far from its edge; a header beside the column starts further in. */
const MAX_INDENT = 3;
/** Most rows a page header or footer beside the columns holds. */
const MAX_MARGIN_ROWS = 3;
/** Columns continue across empty strips up to this high; a wider one spanning the page ends them. */
const MAX_BAND_GAP = 2;
/** A heading centred on a column sits this close to its centre; a header beside the column need not. */
const MAX_CENTRING = 0.25;

/**
 * Reading order of text lines as visual rows: a recursive XY-cut over line boxes. A region is cut
 * into horizontal bands at empty rows of its y-projection; an empty vertical strip with text on both
 * sides in some band is followed up and down through the bands that leave it empty and lie no
 * further apart than a paragraph break (short lines crossing it, such as a picture caption, float
 * after the columns), and the region is split there into columns read one after the other only when
 * both sides hold several rows of long text — a magazine page, not a receipt whose labels and prices
 * leave a gap too — and, for a short strip, the rows on its right start flush (not a river of wide
 * word spaces). Rows at either end of the columns whose right part neither starts at the right
 * column's edge or another column's, nor is centred on it (a page header set to the right, a page
 * number in the corner) are read as rows before or after them; a header of two or more such rows is read
 * as two blocks, its left side first. Items may be pieces of lines
 * (`split-at-gaps.ts`), so a gutter the detector bridged is an empty strip too. What remains is grouped into rows by
 * vertical overlap (> 50%) and read left to right, so a receipt's "label … price" stays one row and
 * scattered scene words read top-to-bottom, left-to-right. Returns rows of item indices. The work
 * spent on column tests is budgeted (O(n) overall), so pathological pages fall back to rows.
 *
 * See Ha, Haralick & Phillips, "Recursive X-Y cut using bounding boxes of connected components"
 * (ICDAR 1995) for the cut; the column test and floats are ours.
 */
export function readingOrder(items: readonly OrderItem[]): number[][] {
  const valid = items.map((_, i) => i).filter((i) => isFiniteBox(items[i].box));
  if (valid.length === 0) return [];
  const unit = median(valid.map((i) => items[i].height)) || 1;
  return orderRegion(items, valid, unit);
}

function orderRegion(items: readonly OrderItem[], idx: number[], unit: number, budget = { left: 64 * items.length + 1024 }): number[][] {
  if (idx.length <= 1) return idx.length ? [idx] : [];
  const bands = bandsOf(items, idx);
  const [x0, x1] = extentX(items, idx);
  const free = bands.map((b) => freeIntervals(items, b, x0, x1, unit));
  const failed: Array<{ s: number; e: number; gap: Interval }> = [];
  // Columns run on through paragraph breaks, not across a wide empty strip spanning the page.
  const top = bands.map((b) => b.reduce((y, k) => Math.min(y, items[k].box.y0), Infinity));
  const bottom = bands.map((b) => b.reduce((y, k) => Math.max(y, items[k].box.y1), -Infinity));
  const near = (above: number, below: number) => top[below] - bottom[above] <= MAX_BAND_GAP * unit;
  // Every empty strip with text on both sides of it in some band is a candidate gutter: follow it up
  // and down through the bands that leave it empty, and split there if both sides are columns.
  for (let i = 0; i < bands.length && budget.left > 0; i++) {
    for (const gap of free[i]) {
      if (gap.a <= x0 || gap.b >= x1) continue;
      if (failed.some((f) => f.s <= i && i <= f.e && f.gap.a < gap.b && gap.a < f.gap.b)) continue;
      const region = { x0, x1, unit };
      let common = [gap];
      const floats: number[] = [];
      let s = i;
      let e = i;
      // The run grows while the band next to it joins the gutter.
      const joins = (from: number, to: number) => {
        if (!near(Math.min(from, to), Math.max(from, to))) return false;
        // Boxes reaching into the band it follows: set among the columns' rows, not apart like a heading.
        const interleaved = to > from ? top[to] < bottom[from] : top[from] < bottom[to];
        const step = extend(items, bands[to], free[to], common, region, interleaved);
        if (step) {
          common = step.common;
          floats.push(...step.floats);
        }
        return step !== undefined;
      };
      while (s > 0 && joins(s, s - 1)) s--;
      while (e + 1 < bands.length && joins(e, e + 1)) e++;
      budget.left -= e - s + 1;
      const floating = new Set(floats);
      const body = bands
        .slice(s, e + 1)
        .flat()
        .filter((k) => !floating.has(k));
      // Rows, not bands: a band holds several rows where boxes overlap by more than `BAND_TRIM` of their height.
      const rows = rowsOf(items, bands.slice(s, e + 1).flat()).length;
      // Captions cross a gutter in a few rows; a strip that most rows cross is no gutter.
      const cut = floats.length <= Math.max(2, rows / 3) ? columnCut(items, body, unit, common, rows, budget) : undefined;
      if (cut) {
        const out: number[][] = [];
        append(out, orderRegion(items, bands.slice(0, s).flat(), unit, budget));
        append(out, cut.head);
        append(out, orderRegion(items, cut.left, unit, budget));
        append(out, orderRegion(items, cut.right, unit, budget));
        append(out, orderRegion(items, floats, unit, budget));
        append(out, cut.tail);
        append(out, orderRegion(items, bands.slice(e + 1).flat(), unit, budget));
        return out;
      }
      failed.push({ s, e, gap });
    }
  }
  const out: number[][] = [];
  for (const band of bands) append(out, rowsOf(items, band));
  return out;
}

interface Step {
  common: Interval[];
  floats: number[];
}

/**
 * Whether a band continues a gutter: it leaves part of the gutter empty, or it does once short lines
 * crossing it are set aside as floats (a picture caption between two columns), provided the band
 * still has text on both sides — a headline across the columns ends the gutter instead — or it
 * holds nothing but floats set among the columns' rows (`interleaved`: a caption line between two rows).
 */
function extend(
  items: readonly OrderItem[],
  band: number[],
  free: Interval[],
  common: Interval[],
  region: { x0: number; x1: number; unit: number },
  interleaved: boolean,
): Step | undefined {
  const next = intersect(common, free, region.unit);
  if (next.length > 0) return { common: next, floats: [] };
  const crosses = (i: number) => common.some((g) => items[i].box.x0 < g.b && items[i].box.x1 > g.a);
  const crossing = band.filter(crosses);
  if (crossing.some((i) => items[i].box.x1 - items[i].box.x0 > MAX_FLOAT * (region.x1 - region.x0))) return undefined;
  const rest = band.filter((i) => !crosses(i));
  // A caption's next line may have a band to itself, between rows of the columns beside it.
  if (rest.length === 0 && interleaved) return { common, floats: crossing };
  const withoutFloats = intersect(common, freeIntervals(items, rest, region.x0, region.x1, region.unit), region.unit);
  const twoSided = withoutFloats.filter((g) => rest.some((i) => items[i].box.x1 <= g.a) && rest.some((i) => items[i].box.x0 >= g.b));
  return twoSided.length > 0 ? { common: twoSided, floats: crossing } : undefined;
}

function append<T>(out: T[], more: T[]): void {
  for (const m of more) out.push(m);
}

function extentX(items: readonly OrderItem[], idx: number[]): [number, number] {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const i of idx) {
    x0 = Math.min(x0, items[i].box.x0);
    x1 = Math.max(x1, items[i].box.x1);
  }
  return [x0, x1];
}

/**
 * Groups of items separated by empty horizontal strips, top to bottom. Each item counts by its
 * middle (`BAND_TRIM`): detector boxes of neighbouring lines overlap on pages detected small or
 * scanned at a slant, and a chain of them must not make one band of a whole column.
 */
function bandsOf(items: readonly OrderItem[], idx: number[]): number[][] {
  const cores = idx.map((i) => {
    const { y0, y1 } = items[i].box;
    const trim = (BAND_TRIM * (y1 - y0)) / 2;
    return { i, y0: y0 + trim, y1: y1 - trim };
  });
  cores.sort((a, b) => a.y0 - b.y0);
  const bands: number[][] = [];
  let bottom = -Infinity;
  for (const b of cores) {
    if (bands.length === 0 || b.y0 > bottom) {
      bands.push([b.i]);
      bottom = b.y1;
    } else {
      bands[bands.length - 1].push(b.i);
      bottom = Math.max(bottom, b.y1);
    }
  }
  return bands;
}

/** Empty x-intervals of `idx` within [x0, x1] at least a gutter wide, margins included. */
function freeIntervals(items: readonly OrderItem[], idx: number[], x0: number, x1: number, unit: number): Interval[] {
  const spans = idx.map((i) => items[i].box).sort((a, b) => a.x0 - b.x0);
  const free: Interval[] = [];
  let reach = x0;
  for (const s of spans) {
    if (s.x0 > reach) free.push({ a: reach, b: s.x0 });
    reach = Math.max(reach, s.x1);
  }
  if (x1 > reach) free.push({ a: reach, b: x1 });
  return free.filter((f) => f.b - f.a >= MIN_GUTTER * unit);
}

function intersect(a: Interval[], b: Interval[], unit: number): Interval[] {
  const out: Interval[] = [];
  for (const p of a) {
    for (const q of b) {
      const lo = Math.max(p.a, q.a);
      const hi = Math.min(p.b, q.b);
      if (hi - lo >= MIN_GUTTER * unit) out.push({ a: lo, b: hi });
    }
  }
  return out;
}

interface ColumnCut {
  /** Rows read before and after the columns: the page's header and footer beside them. */
  head: number[][];
  tail: number[][];
  left: number[];
  right: number[];
}

/**
 * The widest gutter whose two sides both look like text columns. A page's header and footer rows
 * share the gutter but are no part of the columns: rows at the run's ends whose right part starts
 * well inside the right column are set aside, to be read as rows before and after the columns.
 */
function columnCut(
  items: readonly OrderItem[],
  idx: number[],
  unit: number,
  gaps: Interval[],
  rowCount: number,
  budget: { left: number },
): ColumnCut | undefined {
  const rows = rowsOf(items, idx);
  for (const g of [...gaps].sort((p, q) => q.b - q.a - (p.b - p.a))) {
    const column = columnBeyond(items, idx, g, unit);
    const starts = idx.map((i) => items[i].box.x0).filter((x) => x >= g.b - 1e-6);
    const meets = (row: number[]) => meetsColumn(items, row, column, starts, unit);
    let top = 0;
    let bottom = rows.length;
    while (top < bottom && !meets(rows[top])) top++;
    while (bottom > top && !meets(rows[bottom - 1])) bottom--;
    // A header or footer is a few rows; more are the columns' own (a column narrowed beside a picture).
    if (top > MAX_MARGIN_ROWS) top = 0;
    if (rows.length - bottom > MAX_MARGIN_ROWS) bottom = rows.length;
    const split = columnSplit(items, rows.slice(top, bottom).flat(), unit, g, rowCount, budget);
    if (split) return { head: blocksOfHeader(items, rows.slice(0, top), g), tail: rows.slice(bottom), left: split[0], right: split[1] };
  }
  return undefined;
}

/**
 * A page header beside the columns, as blocks: when two or more of its rows hold text on both sides of
 * the gutter (a report's title and price on the left, its analyst and rating on the right), the left
 * block is read before the right one, as a person and an XY cut read them; a single such row (a logo
 * beside a title) stays one row.
 */
function blocksOfHeader(items: readonly OrderItem[], rows: number[][], g: Interval): number[][] {
  const mid = (g.a + g.b) / 2;
  const isLeft = (i: number) => items[i].box.x1 <= mid;
  if (rows.filter((r) => r.some(isLeft) && !r.every(isLeft)).length < 2) return rows;
  const left = rows.map((r) => r.filter(isLeft)).filter((r) => r.length > 0);
  const right = rows.map((r) => r.filter((i) => !isLeft(i))).filter((r) => r.length > 0);
  return [...left, ...right];
}

/** The column right of a gutter: from the gutter to the furthest end of the lines starting at it. */
function columnBeyond(items: readonly OrderItem[], idx: number[], g: Interval, unit: number): Interval {
  let b = g.b;
  for (const i of idx) if (atColumnStart(items[i].box.x0, g.b, unit)) b = Math.max(b, items[i].box.x1);
  return { a: g.b, b };
}

/** Starts at a column's edge, give or take a paragraph indent. */
function atColumnStart(x0: number, edge: number, unit: number): boolean {
  return x0 >= edge - 1e-6 && x0 - edge <= MAX_INDENT * unit;
}

/**
 * Whether a row's text right of the gutter belongs to the columns there: it starts at the column's
 * edge, or it is centred on the column (a heading), or it starts where more lines right of the gutter
 * (`starts`) start than a header holds — the edge of a further column, a sidebar running on below
 * the column beside it. A page header set to the right ("Analyst: …", a date under a logo) or a page
 * number in the corner shares the gutter with the columns but does none of these. A row with nothing
 * right of the gutter is a left column's line.
 */
function meetsColumn(items: readonly OrderItem[], row: number[], column: Interval, starts: number[], unit: number): boolean {
  const right = row.filter((i) => items[i].box.x0 >= column.a - 1e-6);
  if (right.length === 0) return true;
  const [x0, x1] = extentX(items, right);
  if (atColumnStart(x0, column.a, unit) || Math.abs(x0 + x1 - column.a - column.b) / 2 <= MAX_CENTRING * unit) return true;
  return starts.filter((x) => Math.abs(x - x0) <= START_TOLERANCE * unit).length > MAX_MARGIN_ROWS;
}

/** The two sides of a gutter, as [left, right] item indices, when both look like text columns. */
function columnSplit(
  items: readonly OrderItem[],
  idx: number[],
  unit: number,
  g: Interval,
  rowCount: number,
  budget: { left: number },
): [number[], number[]] | undefined {
  // Bounds the work on pathological pages (huge tables of short cells) to O(n) tests overall.
  budget.left -= idx.length;
  if (budget.left < 0) return undefined;
  const mid = (g.a + g.b) / 2;
  const left = idx.filter((i) => items[i].box.x1 <= mid);
  const right = idx.filter((i) => items[i].box.x1 > mid);
  if (left.some((i) => items[i].box.x1 > g.a + 1e-6) || right.some((i) => items[i].box.x0 < g.b - 1e-6)) return undefined;
  // Each side as rows (a row's pieces, a line cut at wide word spaces, together), by their x extents.
  if (!looksLikeColumn(rowExtents(items, left), unit)) return undefined;
  const rowsRight = rowExtents(items, right);
  if (!looksLikeColumn(rowsRight, unit) || !startsFlush(rowsRight, unit, rowCount)) return undefined;
  return looksLikeTable(items, left, right) ? undefined : [left, right];
}

/** A side's row as the column tests see it: its x extent and the height of its text. */
interface RowExtent {
  x0: number;
  x1: number;
  height: number;
}

function rowExtents(items: readonly OrderItem[], idx: number[]): RowExtent[] {
  return rowsOf(items, idx).map((row) => {
    const [x0, x1] = extentX(items, row);
    return { x0, x1, height: median(row.map((i) => items[i].height)) };
  });
}

/** A side's rows holding cells: two or more pieces apart (a text column's lines are one piece). */
const MIN_CELL_ROWS = 0.6;
/** Pieces of those rows that read as figures. */
const MIN_FIGURE_CELLS = 0.5;
/** Rows of the cells' side with a row of the other side at the same height. */
const MIN_ALIGNED_ROWS = 0.8;

/**
 * Labels beside rows of figures: on one side most rows are several cells, mostly figures, and nearly
 * each of them has a row of the other side at its height. A table is read row by row across the gap between its
 * labels and its figures, as a person reads it, not as two columns.
 */
function looksLikeTable(items: readonly OrderItem[], left: number[], right: number[]): boolean {
  const rowsLeft = rowsOf(items, left);
  const rowsRight = rowsOf(items, right);
  const aligned = (row: number[], others: number[][]) => {
    const y0 = Math.min(...row.map((i) => items[i].box.y0)),
      y1 = Math.max(...row.map((i) => items[i].box.y1));
    return others.some((o) => {
      const a = Math.min(...o.map((i) => items[i].box.y0)),
        b = Math.max(...o.map((i) => items[i].box.y1));
      return Math.min(y1, b) - Math.max(y0, a) > 0.5 * Math.min(y1 - y0, b - a);
    });
  };
  const cells = (rows: number[][], others: number[][]) => {
    const multi = rows.filter((r) => r.length >= 2);
    if (multi.length < MIN_CELL_ROWS * rows.length) return false;
    // Cells are figures; pieces of words side by side are columns (a side holding two of them).
    const pieces = multi.flat();
    if (pieces.filter((i) => items[i].figures).length < MIN_FIGURE_CELLS * pieces.length) return false;
    return multi.filter((r) => aligned(r, others)).length >= MIN_ALIGNED_ROWS * multi.length;
  };
  return cells(rowsRight, rowsLeft) || cells(rowsLeft, rowsRight);
}

/**
 * Several rows of long text. Rows of larger text (a heading, a big figure over a short block of an
 * annual report's highlights) do not count towards the length while enough rows of body text remain.
 */
function looksLikeColumn(rows: readonly RowExtent[], unit: number): boolean {
  if (rows.length < MIN_COLUMN_LINES) return false;
  const body = rows.filter((r) => r.height <= HEADING * unit);
  return median((body.length >= MIN_COLUMN_LINES ? body : rows).map((r) => r.x1 - r.x0)) >= MIN_COLUMN_LINE * unit;
}

/**
 * Whether the rows right of a gutter (`rowCount` rows in all, floats included) can be a column: a short
 * one must begin at one x, as columns do. A river of wide word spaces running down a few rows of
 * justified text has words on its right starting anywhere; long columns need no such test (and
 * around a picture they do not start flush).
 */
function startsFlush(rows: readonly RowExtent[], unit: number, rowCount: number): boolean {
  if (rowCount >= SHORT_COLUMN) return true;
  const starts = rows.map((r) => r.x0);
  const mid = median(starts);
  return starts.length === rowCount && starts.every((x) => Math.abs(x - mid) <= START_TOLERANCE * unit);
}

/** Visual rows: items overlapping vertically by more than half the smaller height, left to right. */
function rowsOf(items: readonly OrderItem[], idx: number[]): number[][] {
  const centre = (i: number) => (items[i].box.y0 + items[i].box.y1) / 2;
  const sorted = [...idx].sort((a, b) => centre(a) - centre(b) || items[a].box.x0 - items[b].box.x0);
  const rows: Array<{ members: number[]; y0: number; y1: number }> = [];
  for (const i of sorted) {
    const b = items[i].box;
    const row = rows[rows.length - 1];
    if (row) {
      const core = { y0: row.y0 / row.members.length, y1: row.y1 / row.members.length };
      const overlap = Math.min(core.y1, b.y1) - Math.max(core.y0, b.y0);
      if (overlap > 0.5 * Math.min(core.y1 - core.y0, b.y1 - b.y0)) {
        row.members.push(i);
        row.y0 += b.y0;
        row.y1 += b.y1;
        continue;
      }
    }
    rows.push({ members: [i], y0: b.y0, y1: b.y1 });
  }
  return rows.map((r) => r.members.sort((a, b) => items[a].box.x0 - items[b].box.x0));
}

function isFiniteBox(b: FrameBox): boolean {
  return [b.x0, b.y0, b.x1, b.y1].every(Number.isFinite);
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
