import type { DecodedImage } from '../../decode/decode-image.ts';
import { greyOf } from '../crop-line.ts';
import { otsuThreshold } from '../ink-profile.ts';

/** A rectangle of the page in its pixels. */
export interface PageRegion {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The region lies between column rules: one column of text. */
  readonly column?: boolean;
}

/** A vertical rule: its column (at its foot), the columns its ink covers from top to foot (a skewed scan's drifts), and its rows. */
interface Rule {
  readonly x: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** Rows per band in which a rule is looked for; a rule runs through nearly every row of each band it crosses. */
const BAND = 32;
/** Share of a band's rows a rule inks at its column (within one pixel either side). */
const RULE_COVER = 0.75;
/** A rule's ink is thin: its horizontal run is at most this share of the page's width (and 3 px at least). */
const RULE_THICKNESS = 0.004;
/** Bands a rule may skip (a break in the print, a dash crossing it) and the columns it may drift per band (a skewed scan). */
const RULE_SKIP_BANDS = 2;
const RULE_DRIFT = 2;
/** A column rule runs at least this share of the page's height: a box's edge or a letter's stem does not. */
const RULE_MIN_HEIGHT = 0.25;
/**
 * In a section of the page (between section rules), a column rule runs through at least this share of the
 * section, and this share of the page (a masthead's boxes are not columns).
 */
const RULE_MIN_SHARE_OF_SECTION = 0.5;
const RULE_MIN_HEIGHT_IN_SECTION = 0.1;
/** Rules this near the page's left or right edge are the scan's border or the paper's edge. */
const EDGE_MARGIN = 0.03;
/**
 * A rule's columns go on above and below its ink while its gutter stays open: a band of rows in which at
 * most this share of rows has ink beside the rule (from 4 to 8 columns of it on a 2 700-px page; a faint or
 * broken rule's own ink does not count), where a line of text across the gutter inks far more.
 */
const OPEN_GUTTER = 0.1;
const GUTTER_FROM = 0.0015;
const GUTTER_TO = 0.003;
/** Rows below a rule's end, as a share of the page's height, that still belong to its columns (a line or two). */
const SHORT_END = 0.1;

/** Ink where a thin run of it (at most `thickness` columns wide) crosses each pixel: letters' stems and rules, not blocks. */
function thinInk(grey: Uint8Array, width: number, height: number, thickness: number, threshold: number): Uint8Array {
  const thin = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; ) {
      if (grey[row + x] > threshold) {
        x++;
        continue;
      }
      let end = x;
      while (end < width && grey[row + end] <= threshold) end++;
      if (end - x <= thickness) thin.fill(1, row + x, row + end);
      x = end;
    }
  }
  return thin;
}

/** The page's grey levels and its ink: at or below Otsu's threshold. */
interface PageInk {
  readonly width: number;
  readonly height: number;
  readonly grey: Uint8Array;
  readonly threshold: number;
  /** Ink in thin horizontal runs (`thinInk`): what a vertical rule is made of. */
  readonly thin: Uint8Array;
}

function pageInk(image: DecodedImage): PageInk {
  const grey = greyOf(image);
  const histogram = new Float64Array(256);
  for (const v of grey) histogram[v]++;
  const { width, height } = image;
  const threshold = otsuThreshold(histogram);
  return { width, height, grey, threshold, thin: thinInk(grey, width, height, Math.max(3, Math.round(width * RULE_THICKNESS)), threshold) };
}

/**
 * A section rule runs across this share of the page's width, in pieces at least `SECTION_RULE_PIECE` of it long
 * (one per column, broken at the gutters): one under a column or between two articles is shorter, a word is
 * shorter than a piece.
 */
const SECTION_RULE_WIDTH = 0.75;
const SECTION_RULE_PIECE = 0.1;
/** Breaks a printed rule's ink may have (worn type, a faint scan), as a share of the page's width. */
const SECTION_RULE_GAP = 0.002;

/** The steepest skew a section rule is looked for at (rows per column, about 1.7°). */
const MAX_SKEW = 0.03;

/**
 * The page's horizontal section rules, as `[top, bottom)` rows: where the ink of a few rows together runs,
 * in pieces too long for a word (small breaks bridged), across `SECTION_RULE_WIDTH` of the page, in a band no
 * thicker than a rule (a picture's dark rows are not one). Scans are skewed and their paper warped, so the
 * rows are also read slanted, a few rows per page width at a time up to `MAX_SKEW`; a rule found at several
 * slants is one rule. The ink is halved in each direction first (any ink of 2 × 2 pixels): a rule stays a rule.
 */
function sectionRules(ink: PageInk): Array<[number, number]> {
  const [width, height] = [ink.width >> 1, ink.height >> 1];
  if (width < 2 || height < 2) return [];
  const { grey: g, threshold: t, width: stride } = ink;
  const map = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = 2 * y * stride + 2 * x;
      map[y * width + x] = g[at] <= t || g[at + 1] <= t || g[at + stride] <= t || g[at + stride + 1] <= t ? 1 : 0;
    }
  const gap = Math.max(1, Math.round(ink.width * SECTION_RULE_GAP) >> 1);
  const thickness = Math.max(2, Math.round(ink.width * RULE_THICKNESS) >> 1);
  const found: Array<[number, number]> = [];
  const step = thickness / width;
  for (let slope = -MAX_SKEW; slope <= MAX_SKEW + 1e-9; slope += step)
    found.push(...slantedRules(map, width, height, gap, thickness, slope));
  // Detections that overlap are one rule, whose rows are the narrowest detection's (the slant nearest its
  // own), in the page's full-size rows.
  const groups: Array<{ reach: number; rule: [number, number] }> = [];
  for (const rule of found.sort((a, b) => a[0] - b[0])) {
    const last = groups.at(-1);
    if (last && rule[0] <= last.reach) {
      last.reach = Math.max(last.reach, rule[1]);
      if (rule[1] - rule[0] < last.rule[1] - last.rule[0]) last.rule = rule;
    } else groups.push({ reach: rule[1], rule });
  }
  return groups.map(({ rule: [top, bottom] }) => [2 * top, Math.min(ink.height, 2 * bottom)]);
}

/** `sectionRules` at one slant: column x is read `slope · x` rows below the nominal row. */
function slantedRules(
  map: Uint8Array,
  width: number,
  height: number,
  gap: number,
  thickness: number,
  slope: number,
): Array<[number, number]> {
  const shift = Int32Array.from({ length: width }, (_, x) => Math.round(slope * x));
  const [lowest, highest] = [Math.min(...shift), Math.max(...shift)];
  // Per column, the inked rows among the window's `thickness` rows from the nominal row on.
  const inked = new Uint16Array(width);
  const add = (y: number, sign: number) => {
    for (let x = 0; x < width; x++) {
      const yy = y + shift[x];
      if (yy >= 0 && yy < height && map[yy * width + x]) inked[x] += sign;
    }
  };
  const [from, to] = [-highest, height - lowest];
  for (let y = from; y < from + thickness - 1; y++) add(y, 1);
  const ruled = new Uint8Array(to - from);
  for (let y = from; y < to; y++) {
    add(y + thickness - 1, 1);
    let [ruledWidth, start, last] = [0, 0, -Infinity];
    const close = () => {
      if (last - start + 1 >= SECTION_RULE_PIECE * width) ruledWidth += last - start + 1;
    };
    for (let x = 0; x < width; x++) {
      if (inked[x] === 0) continue;
      if (x - last > gap) {
        close();
        start = x;
      }
      last = x;
    }
    close();
    ruled[y - from] = ruledWidth >= SECTION_RULE_WIDTH * width ? 1 : 0;
    add(y, -1);
  }
  const rules: Array<[number, number]> = [];
  for (let k = 0; k < ruled.length; ) {
    if (!ruled[k]) {
      k++;
      continue;
    }
    let end = k;
    while (end < ruled.length && ruled[end]) end++;
    // Every flagged window holds the rule: it lies in the rows they share, from the last one's top to the
    // first one's bottom, and across the page from its highest column to its lowest.
    if (end - k <= thickness) rules.push([Math.max(0, from + end - 1 + lowest), Math.min(height, from + k + thickness + highest)]);
    k = end;
  }
  return rules;
}

/**
 * The vertical rules of the rows `[y0, y1)` of the page: per band of rows, the columns whose thin ink (one
 * pixel either side) covers most of the band, chained from band to band while they stay within `RULE_DRIFT`
 * columns, skipping at most `RULE_SKIP_BANDS` bands; a chain as tall as `RULE_MIN_HEIGHT` of the page is a rule.
 */
function findRules(ink: PageInk, y0: number, y1: number): Rule[] {
  const { width, height, grey, threshold, thin } = ink;
  const bands = Math.floor((y1 - y0) / BAND);
  const rowOf = (band: number) => y0 + band * BAND;
  type Chain = { x: number; firstX: number; left: number; right: number; top: number; bottom: number; lastBand: number };
  // Whether band `b` has (next to) no ink around column `x`: the gutter goes on there. Ink is looked for
  // beside the rule's own run in each row, which may be thicker than `thin` allows where the rule starts
  // (a blot of the type's end): counted as ink beside it, the first line beside that blot fell out of the columns.
  const [gutterFrom, gutterTo] = [Math.max(2, Math.round(width * GUTTER_FROM)), Math.max(4, Math.round(width * GUTTER_TO))];
  const maxRun = 2 * Math.max(3, Math.round(width * RULE_THICKNESS));
  const dark = (y: number, x: number) => grey[y * width + Math.min(width - 1, Math.max(0, x))] <= threshold;
  const open = (b: number, x: number) => {
    let inked = 0;
    for (let y = rowOf(b); y < rowOf(b + 1); y++) {
      let [left, right] = [x, x];
      while (dark(y, left - 1) && x - left < maxRun) left--;
      while (dark(y, right + 1) && right - x < maxRun) right++;
      for (let dx = gutterFrom; dx <= gutterTo; dx++) {
        if (dark(y, left - dx) || dark(y, right + dx)) {
          inked++;
          break;
        }
      }
    }
    return inked <= OPEN_GUTTER * BAND;
  };
  // The row of `[from, to)` with the least ink across the page (its edges left out): where the columns
  // begin or end without cutting through a heading's descenders or a line's ascenders.
  const [inner0, inner1] = [Math.round(width * EDGE_MARGIN), Math.round(width * (1 - EDGE_MARGIN))];
  const clearestRow = (from: number, to: number, which: 'first' | 'last') => {
    let [best, bestInk] = [from, Infinity];
    for (let y = from; y < Math.min(to, height); y++) {
      let ink = 0;
      for (let x = inner0; x < inner1; x++) if (dark(y, x)) ink++;
      if (ink < bestInk || (ink === bestInk && which === 'last')) [best, bestInk] = [y, ink];
    }
    return best;
  };
  // The first row of a rule's ink at column `x`, going up from row `from` by at most a band.
  const ruleInkTop = (x: number, from: number) => {
    let y = from;
    while (y > Math.max(y0, from - BAND) && [-1, 0, 1].some((dx) => dark(y - 1, x + dx))) y--;
    return y;
  };
  // Whether row `y` holds a horizontal rule's ink: a run across `SECTION_RULE_PIECE` of the page (a letter's is short).
  const ruledRow = (y: number) => {
    let run = 0;
    for (let x = inner0; x < inner1; x++) {
      run = dark(y, x) ? run + 1 : 0;
      if (run >= SECTION_RULE_PIECE * width) return true;
    }
    return false;
  };
  // Where the columns begin above a rule whose ink starts above its first band of thin ink: the clearest
  // row within a band above that ink, below any horizontal rule there (a masthead's is not the columns').
  const columnsTopAbove = (inkTop: number) => {
    let from = inkTop;
    while (from > Math.max(y0, inkTop - BAND) && !ruledRow(from - 1)) from--;
    return clearestRow(from, inkTop + 1, 'first');
  };
  const chains: Chain[] = [];
  const rules: Rule[] = [];
  const count = new Uint16Array(width);
  for (let b = 0; b < bands; b++) {
    count.fill(0);
    for (let y = rowOf(b); y < rowOf(b + 1); y++) {
      const row = y * width;
      for (let x = 1; x + 1 < width; x++) if (thin[row + x - 1] | thin[row + x] | thin[row + x + 1]) count[x]++;
    }
    // Each run of covered columns `[start, end)` is one candidate, at its middle.
    const candidates: Array<{ x: number; start: number; end: number }> = [];
    for (let x = 0; x < width; ) {
      if (count[x] < RULE_COVER * BAND) {
        x++;
        continue;
      }
      let end = x;
      while (end < width && count[end] >= RULE_COVER * BAND) end++;
      candidates.push({ x: Math.round((x + end - 1) / 2), start: x, end });
      x = end;
    }
    for (const { x, start, end } of candidates) {
      const chain = chains.find((c) => Math.abs(c.x - x) <= RULE_DRIFT && c.lastBand < b);
      if (chain)
        Object.assign(chain, {
          x,
          left: Math.min(chain.left, start),
          right: Math.max(chain.right, end),
          bottom: rowOf(b + 1),
          lastBand: b,
        });
      else chains.push({ x, firstX: x, left: start, right: end, top: rowOf(b), bottom: rowOf(b + 1), lastBand: b });
    }
    for (let k = chains.length - 1; k >= 0; k--) {
      if (b - chains[k].lastBand <= RULE_SKIP_BANDS && b + 1 < bands) continue;
      const [chain] = chains.splice(k, 1);
      const inside = chain.x > width * EDGE_MARGIN && chain.x < width * (1 - EDGE_MARGIN);
      const tall = Math.min(RULE_MIN_HEIGHT * height, Math.max(RULE_MIN_SHARE_OF_SECTION * (y1 - y0), RULE_MIN_HEIGHT_IN_SECTION * height));
      if (!inside || chain.bottom - chain.top < tall) continue;
      const firstBand = (chain.top - y0) / BAND;
      let [top, bottom] = [firstBand, (chain.bottom - y0) / BAND];
      while (top > 0 && open(top - 1, chain.firstX)) top--;
      // Where the gutter is not open above the rule (a line hugs it), the columns begin above the rule's own
      // first ink, which may lie a band above its first band of thin ink (a blot where the type ends).
      const inkTop = top === firstBand ? ruleInkTop(chain.firstX, chain.top) : chain.top;
      while (bottom < bands && open(bottom, chain.x)) bottom++;
      // What is left below is the columns' last lines when it is short: the rule ends in a blot, or its last band is missing.
      const end = rowOf(bottom) > y1 - SHORT_END * height ? y1 : clearestRow(rowOf(bottom) - BAND, rowOf(bottom), 'last');
      rules.push({
        x: chain.x,
        left: chain.left,
        right: chain.right,
        top: inkTop < chain.top ? columnsTopAbove(inkTop) : clearestRow(rowOf(top), rowOf(top + 1), 'first'),
        bottom: end,
      });
    }
  }
  return mergeDoubleRules(rules, width);
}

/** Rules nearer than this share of the page's width with rows in common are one double rule, not a column between them. */
const DOUBLE_RULE = 0.01;

function mergeDoubleRules(rules: readonly Rule[], width: number): Rule[] {
  const merged: Rule[] = [];
  for (const rule of [...rules].sort((a, b) => a.x - b.x)) {
    const k = merged.findIndex((m) => rule.x - m.x <= DOUBLE_RULE * width && rule.top < m.bottom && rule.bottom > m.top);
    if (k < 0) merged.push(rule);
    else {
      const m = merged[k];
      merged[k] = {
        x: Math.round((m.x + rule.x) / 2),
        left: Math.min(m.left, rule.left),
        right: Math.max(m.right, rule.right),
        top: Math.min(m.top, rule.top),
        bottom: Math.max(m.bottom, rule.bottom),
      };
    }
  }
  return merged;
}

/**
 * The page cut at its vertical column rules, in reading order: what lies above the rules across the
 * page (a masthead, a heading), then the columns between them left to right, then what lies below,
 * each part cut again at the rules inside it. Old newspapers rule their narrow gutters, and Tesseract's
 * own layout analysis reads across such a gutter at some scales and not at others (a Fraktur front page
 * read 27 at the scale the engine gives it and 88 at full size); read a column at a time, it cannot.
 * A section rule across the columns (a feuilleton's line) ends them: the sections are cut one after the
 * other. A page without rules is one region.
 *
 * @example for (const region of ruledColumns(page)) lines.push(...(await tesseract.recognizePage(page, ['frk'], { scale, region })));
 */
export function ruledColumns(image: DecodedImage): PageRegion[] {
  const ink = pageInk(image);
  const page = { x: 0, y: 0, width: image.width, height: image.height };
  const rules = findRules(ink, 0, image.height);
  if (rules.length === 0) return [page];
  // Only a section rule that the columns run through changes how the page is cut (one under a masthead does not).
  const [columnsTop, columnsBottom] = [Math.min(...rules.map((r) => r.top)), Math.max(...rules.map((r) => r.bottom))];
  const sections = sectionRules(ink).filter(([top, bottom]) => top > columnsTop && bottom < columnsBottom);
  if (sections.length === 0) return cut(page, rules);
  // Sections are read one after the other, each cut at its own column rules: columns above a section
  // rule end there (a newspaper's feuilleton below the line is read after the news above it).
  const regions: PageRegion[] = [];
  let y = 0;
  for (const [top, bottom] of [...sections, [image.height, image.height]]) {
    // Between the strokes of a double rule there is no line of text to read.
    if (top - y >= BAND) regions.push(...cut({ ...page, y, height: top - y }, findRules(ink, y, top)));
    // The rule's own rows (more than one line's on a skewed page) are read too: text may reach into them.
    if (bottom > top && bottom < image.height) regions.push({ ...page, y: top, height: bottom - top });
    y = bottom;
  }
  return regions;
}

function cut(region: PageRegion, rules: readonly Rule[]): PageRegion[] {
  const inside = rules.filter(
    (r) => r.x > region.x && r.x < region.x + region.width && r.top >= region.y && r.bottom <= region.y + region.height,
  );
  if (inside.length === 0) return [region];
  // The rules whose rows overlap the topmost one's make one band of columns.
  const first = inside.reduce((a, b) => (b.top < a.top ? b : a));
  const band = inside.filter((r) => r.top < first.bottom && r.bottom > first.top);
  const top = Math.min(...band.map((r) => r.top));
  const bottom = Math.max(...band.map((r) => r.bottom));
  // Columns lie between the rules, the rules' own ink left out (read whole, Tesseract wrote a rule as "|").
  const sorted = [...band].sort((a, b) => a.x - b.x);
  const starts = [region.x, ...sorted.map((r) => r.right)];
  const ends = [...sorted.map((r) => r.left), region.x + region.width];
  const rest = inside.filter((r) => !band.includes(r));
  const parts: PageRegion[] = [];
  if (top > region.y) parts.push(...cut({ ...region, height: top - region.y }, rest));
  for (let k = 0; k < starts.length; k++) {
    parts.push(...cut({ x: starts[k], y: top, width: ends[k] - starts[k], height: bottom - top, column: true }, rest));
  }
  if (bottom < region.y + region.height) parts.push(...cut({ ...region, y: bottom, height: region.y + region.height - bottom }, rest));
  return parts.filter((p) => p.width > 1 && p.height > 1);
}
