import type { LineCrop } from '../recognize/crop-line.ts';
import type { CtcReading } from '../recognize/ctc-decode.ts';
import { inkProfile, type ColumnRun, type InkProfile } from '../recognize/ink-profile.ts';
import type { RecognizedChar } from '../recognize/recognized-line.ts';
import type { LineReading } from '../recognize/recognizer.ts';

/** Scripts written without spaces: no word gaps are inserted or removed next to them. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Glyphs much narrower than their cell: in monospace print they leave wide blanks inside words. */
const NARROW = /^[1Iilj!|.,:;'"`()[\]{}]$/u;

export interface WordGapParams {
  /** Smallest word gap, in text heights. */
  minGap: number;
  /** A word gap is at least this much (text heights) wider than the line's median letter gap. */
  overMedian: number;
  /** Extra width asked of a gap next to a narrow glyph (1, I, l, punctuation). */
  narrowExtra: number;
  /**
   * The recognizer's own space probability at a blank (`RecognizedChar.spaceBefore`) must reach this
   * for the ink to add a space there: a serif T or V, or letters thinned by fading, leave blanks as
   * wide as a word gap inside a word ("GS T", "V E05"), where the recognizer, which sees the letters,
   * gives the space next to nothing.
   */
  minSpaceProbability: number;
}

export const DEFAULT_WORD_GAP_PARAMS: WordGapParams = { minGap: 0.28, overMedian: 0.15, narrowExtra: 0.1, minSpaceProbability: 0.05 };

/** The widest blank run whose centre lies strictly between two character peaks (crop pixels). */
function widestGapBetween(gaps: readonly ColumnRun[], a: number, b: number): ColumnRun | undefined {
  let best: ColumnRun | undefined;
  for (const g of gaps) {
    const c = (g.start + g.end) / 2;
    if (c > a && c < b && (!best || g.end - g.start > best.end - best.start)) best = g;
  }
  return best;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const isSpace = (t: string) => t.trim() === '';

/**
 * Word gaps the recognizer missed, found in the picture: PP-OCRv4's Chinese recognizer drops spaces
 * between Latin words ("GIFTVOUCHER"). On the crop the recognizer read, the blank column runs between
 * two characters' CTC peaks are measured in text heights; letter gaps of a line form one group and
 * word gaps are clearly wider (≥ `minGap` and ≥ the line's median letter gap + `overMedian`, more
 * next to narrow glyphs whose cell is mostly blank in monospace print). A space is inserted at such
 * a gap, except next to CJK characters or where the recognizer gave a space almost no chance
 * (`minSpaceProbability`); none goes before the separator of a number ("1.48"), and one after its
 * point must be twice as wide. The recognizer's own spaces stand: dropping those the ink
 * did not confirm lost more words than it mended (sign lettering, form fields; docs/decisions.md).
 * Word edges move to the ink: a word's first character starts where its ink starts and its last ends
 * where its ink ends, so word boxes fit the text (CTC peaks sit inside glyphs and their midpoints cut
 * words short).
 *
 * @example const reading = refineWordGaps(ctcDecode(best, steps, dictionary, fraction), crop);
 */
export function refineWordGaps(reading: CtcReading, crop: LineCrop, params: WordGapParams = DEFAULT_WORD_GAP_PARAMS): LineReading {
  const usable = reading.chars.length > 0 && reading.centres?.length === reading.chars.length;
  return refineWordGapsOnInk(reading, usable ? inkProfile(crop) : undefined, params);
}

/** `refineWordGaps` on the crop's ink profile, measured when the line was read (`LineReading.ink`). */
export function refineWordGapsOnInk(
  reading: LineReading & { centres?: number[] },
  profile: InkProfile | undefined,
  params: WordGapParams = DEFAULT_WORD_GAP_PARAMS,
): LineReading {
  const { centres, ink: _ink, ...plain } = reading;
  if (!profile || !centres || centres.length !== reading.chars.length || reading.chars.length === 0 || profile.textHeight < 6) return plain;
  const chars = segment(reading.chars, centres, profile, params);
  if (!chars) return plain;
  const fitted = fitWordEdges(chars, profile);
  return { ...plain, text: fitted.map((c) => c.char.text).join(''), chars: fitted.map((c) => c.char) };
}

interface Placed {
  char: RecognizedChar;
  /** Peak in crop pixels; NaN for spaces. */
  peak: number;
  /** The blank run chosen as the gap before this character (spaces only). */
  gap?: ColumnRun;
}

/** Below this share of letter pairs with a blank column between them, the profile is not seeing letters. */
const MIN_SEPARATED_SHARE = 0.3;

const DIGIT = /^\p{Nd}$/u;
const SEPARATOR = /^[.,]$/u;

/** After a point between digits, a word gap must be this many times as wide: "64. 75" is one price, "1. 3071-0042" a numbered item. */
const AFTER_DECIMAL_POINT = 2;

type Glyphs = ReadonlyArray<{ c: RecognizedChar }>;
const textAt = (glyphs: Glyphs, k: number) => glyphs[k]?.c.text ?? '';

/**
 * Whether glyph `j` is a decimal or thousands separator between two digits ("1.48", "1,716"): no word
 * gap goes before it. Tabular figures set a narrow "1" in a full-width cell, so the blank after it
 * looks like a word gap, but no word starts with the separator of a number.
 */
function separatesNumber(glyphs: Glyphs, j: number): boolean {
  return DIGIT.test(textAt(glyphs, j - 1)) && SEPARATOR.test(textAt(glyphs, j)) && DIGIT.test(textAt(glyphs, j + 1));
}

/** Whether glyph `j` is a digit right after a point that follows a digit ("64.|75"). */
function afterDecimalPoint(glyphs: Glyphs, j: number): boolean {
  return DIGIT.test(textAt(glyphs, j - 2)) && textAt(glyphs, j - 1) === '.' && DIGIT.test(textAt(glyphs, j));
}

/** Undefined when the ink profile cannot tell letters apart (outlined text on a busy photo): the recognizer's spaces stand. */
function segment(
  chars: readonly RecognizedChar[],
  centres: readonly number[],
  profile: InkProfile,
  params: WordGapParams,
): Placed[] | undefined {
  const { width, textHeight: h, gaps } = profile;
  // Pairs of neighbouring non-space characters, with whether the recognizer put a space between.
  const glyphs = chars.map((c, i) => ({ c, peak: centres[i] * width })).filter((g) => !isSpace(g.c.text));
  const pairs = glyphs.slice(1).map((b, i) => {
    const a = glyphs[i];
    const gap = widestGapBetween(gaps, a.peak, b.peak);
    return { gap, width: gap ? (gap.end - gap.start) / h : 0 };
  });
  const separated = pairs.filter((p) => p.gap).length;
  if (pairs.length >= 3 && separated < MIN_SEPARATED_SHARE * pairs.length) return undefined;
  // Indices into `glyphs` of the characters that follow a recognizer space.
  const followsSpace = new Set<number>();
  let g = -1;
  let pendingSpace = false;
  for (const c of chars) {
    if (isSpace(c.text)) pendingSpace = g >= 0;
    else {
      g++;
      if (pendingSpace) followsSpace.add(g);
      pendingSpace = false;
    }
  }
  const letterGap = median(pairs.filter((_, i) => !followsSpace.has(i + 1)).map((p) => p.width));
  const threshold = Math.max(params.minGap, letterGap + params.overMedian);

  const out: Placed[] = [];
  glyphs.forEach((b, j) => {
    if (j > 0) {
      const a = glyphs[j - 1];
      const pair = pairs[j - 1];
      const cjk = CJK.test(a.c.text) || CJK.test(b.c.text);
      const narrow = NARROW.test(a.c.text) || NARROW.test(b.c.text);
      const need = (threshold + (narrow ? params.narrowExtra : 0)) * (afterDecimalPoint(glyphs, j) ? AFTER_DECIMAL_POINT : 1);
      const likely = (b.c.spaceBefore ?? 1) >= params.minSpaceProbability;
      const space = !separatesNumber(glyphs, j) && (followsSpace.has(j) || (!cjk && likely && pair.width >= need));
      if (space) {
        const at = pair.gap ? (pair.gap.start + pair.gap.end) / 2 / width : (a.c.x1 + b.c.x0) / 2;
        out.push({ char: { text: ' ', x0: at, x1: at, confidence: Math.min(a.c.confidence, b.c.confidence) }, peak: NaN, gap: pair.gap });
      }
    }
    out.push({ char: b.c, peak: b.peak });
  });
  return out;
}

/** Moves each word's outer edges to its ink: from the end of the blank before it to the start of the blank after it. */
function fitWordEdges(placed: Placed[], profile: InkProfile): Placed[] {
  const { width, inkRuns } = profile;
  if (inkRuns.length === 0) return placed;
  const out = placed.map((p) => ({ ...p, char: { ...p.char } }));
  let start = 0;
  for (let i = 0; i <= out.length; i++) {
    if (i < out.length && !isSpace(out[i].char.text)) continue;
    if (i > start) {
      const left = start > 0 ? out[start - 1].gap : undefined;
      const right = i < out.length ? out[i].gap : undefined;
      // Without a measured gap the word runs to the line's ink edge (first/last word) or keeps its CTC edge.
      const from = left ? left.end : start === 0 ? inkRuns[0].start : undefined;
      const to = right ? right.start : i === out.length ? inkRuns[inkRuns.length - 1].end : undefined;
      const first = out[start].char,
        last = out[i - 1].char;
      if (from !== undefined && from / width < first.x1) first.x0 = from / width;
      if (to !== undefined && to / width > last.x0) last.x1 = to / width;
    }
    start = i + 1;
  }
  return out;
}
