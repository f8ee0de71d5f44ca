import type { BreakType, DetectedLanguage, OcrBlock, OcrMode, OcrParagraph, OcrResult, OcrWord, Quad } from '../ocr-types.ts';
import type { RecognizedLine } from '../recognize/recognized-line.ts';
import { quadCentre } from '../geometry.ts';
import { groupLines } from './group-lines.ts';
import { addWeights, languageOfWord, languagesByWeight, lineLanguageContext } from './language-of.ts';
import {
  frameBoxOf,
  quadHeight,
  quadOfFrameBox,
  readingFrameOf,
  sliceQuad,
  toFrame,
  type FrameBox,
  type ReadingFrame,
} from './reading-frame.ts';
import { median, readingOrder, type OrderItem } from './reading-order.ts';
import { splitAtWideGaps } from './split-at-gaps.ts';
import { clamp01, splitWords, type WordDraft } from './split-words.ts';

export interface LayoutPage {
  width: number;
  height: number;
  mode: OcrMode;
  /** The lines come in reading order already (a recognizer that laid out the page itself): keep it. */
  ordered?: boolean;
}

interface PlacedLine {
  words: WordDraft[];
  languages: Array<string | undefined>;
}

/**
 * Turns recognized lines into Google's hierarchy (page → blocks → paragraphs → words → symbols)
 * with breaks, confidences (means of the level below), languages (from the script, weighted by
 * letters) and the full text in reading order (`fullTextAnnotation.text`: words joined by their
 * breaks, every line ending in `\n`). Pure; boxes are integer page pixels clamped to the page.
 *
 * @example
 *   const result = buildLayout(lines, { width: 1280, height: 720, mode: 'text' });
 *   result.text; // "WAITING?\nPLEASE\nTURN OFF\n"
 */
export function buildLayout(lines: readonly RecognizedLine[], page: LayoutPage): OcrResult {
  const placed: PlacedLine[] = [];
  const kept: RecognizedLine[] = [];
  // Reading order works on the pieces of lines between wide gaps (a gutter the detector bridged). Lines
  // already in order came from a reader that found the columns itself: cut there, a justified line's wide
  // spaces would become line breaks.
  for (const line of page.ordered ? lines : lines.flatMap(splitAtWideGaps)) {
    if (!line.box.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y))) continue;
    const words = splitWords(line);
    if (words.length === 0) continue;
    const ctx = lineLanguageContext(words.map((w) => w.text).join(' '), line.language);
    placed.push({ words, languages: words.map((w) => languageOfWord(w.text, ctx)) });
    kept.push(line);
  }
  const frame = readingFrameOf(kept.map((l) => l.box));
  // Right-to-left pages (Arabic, Hebrew) read rows and columns from the right: mirror the frame.
  const mirror = isRightToLeft(placed.map((p) => p.words.map((w) => w.text).join(' ')));
  const items: OrderItem[] = kept.map((l) => coreItem(frame, l, mirror));
  const rows = page.ordered ? items.map((_, i) => [i]) : readingOrder(items);
  const groups = groupLines(items, rows);
  const clamp = clamper(page);

  const blocks: OcrBlock[] = groups.map((paragraphRows) => {
    const paragraphs = paragraphRows.map((rowIds): OcrParagraph => {
      const words: OcrWord[] = [];
      const weights = new Map<string, number>();
      rowIds.forEach((rowId, r) => {
        const row = rows[rowId];
        row.forEach((lineId, s) => {
          const { words: drafts, languages } = placed[lineId];
          drafts.forEach((d, w) => {
            const lastInRow = s === row.length - 1 && w === drafts.length - 1;
            const lastInParagraph = lastInRow && r === rowIds.length - 1;
            const brk: BreakType | undefined = lastInParagraph
              ? 'LINE_BREAK'
              : lastInRow
                ? d.text.endsWith('-') && d.text.length > 1
                  ? 'HYPHEN'
                  : 'EOL_SURE_SPACE'
                : d.spaceAfter || w === drafts.length - 1
                  ? 'SPACE'
                  : undefined;
            const lang = languages[w];
            if (lang) weights.set(lang, (weights.get(lang) ?? 0) + letterCount(d.text));
            words.push(wordOf(d, brk, lang, clamp));
          });
        });
      });
      const languages = languagesByWeight(weights);
      // Digits and punctuation take the paragraph's language, as Google reports one for every word.
      const fallback = languages.slice(0, 1).map((l) => ({ languageCode: l.languageCode, confidence: 1 }));
      return {
        box: enclose(frame, words, clamp),
        confidence: mean(words.map((w) => w.confidence)),
        words: words.map((w) => (w.languages.length ? w : { ...w, languages: fallback })),
        languages,
      };
    });
    return {
      box: enclose(frame, paragraphs, clamp),
      confidence: mean(paragraphs.map((p) => p.confidence)),
      paragraphs,
      languages: weighLanguages(paragraphs.map((p) => ({ languages: p.languages, weight: letters(p.words) }))),
    };
  });

  const pageLanguages = weighLanguages(
    blocks.map((b) => ({ languages: b.languages, weight: b.paragraphs.reduce((s, p) => s + letters(p.words), 0) })),
  );
  return {
    text: textOf(blocks),
    ...(pageLanguages.length ? { locale: pageLanguages[0].languageCode } : {}),
    page: {
      width: page.width,
      height: page.height,
      confidence: mean(blocks.map((b) => b.confidence)),
      blocks,
      languages: pageLanguages,
    },
  };
}

/**
 * The line's core box in the reading frame: its centre ± half its text height, and along the line
 * the extent of its ink (`inkSpan`) rather than the detector's box, whose margins can fill a narrow
 * column gutter.
 */
function coreItem(frame: ReadingFrame, line: RecognizedLine, mirror: boolean): OrderItem {
  const { box } = line;
  const span = inkSpan(line);
  const b = frameBoxOf(frame, span ? sliceQuad(box, span[0], span[1]) : box);
  const height = quadHeight(box);
  const centre = toFrame(frame, quadCentre(box));
  const [x0, x1] = mirror ? [-b.x1, -b.x0] : [b.x0, b.x1];
  return { box: { x0, x1, y0: centre.y - height / 2, y1: centre.y + height / 2 }, height, figures: isFigures(line.text) };
}

/** Mostly digits and the signs around them ("2,417.9", "(86)", "22.5 %"): a table cell's figures. */
function isFigures(text: string): boolean {
  const visible = [...text].filter((c) => c.trim() !== '');
  return visible.length > 0 && visible.filter((c) => /[\p{N}.,()%$€£+\-–/]/u.test(c)).length >= 0.6 * visible.length;
}

/**
 * Where a line's text starts and ends, as fractions of its length: its first character's start and
 * its last one's end (fitted to the ink by `word-gaps.ts`), but never more than 1.5 median character
 * widths outside those characters, as a neighbouring line's ink inside the crop can pull them out.
 */
function inkSpan(line: RecognizedLine): [number, number] | undefined {
  const ink = line.chars.filter((c) => c.text.trim() !== '');
  if (ink.length === 0) return undefined;
  const width = 1.5 * median(ink.map((c) => c.x1 - c.x0));
  const first = ink[0],
    last = ink[ink.length - 1];
  return [clamp01(Math.max(first.x0, first.x1 - width)), clamp01(Math.min(last.x1, last.x0 + width))];
}

const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}]/gu;
const ANY_LETTER = /\p{L}/gu;

function isRightToLeft(texts: readonly string[]): boolean {
  let rtl = 0;
  let all = 0;
  for (const t of texts) {
    rtl += t.match(RTL_LETTER)?.length ?? 0;
    all += t.match(ANY_LETTER)?.length ?? 0;
  }
  return rtl > all / 2;
}

function wordOf(d: WordDraft, brk: BreakType | undefined, lang: string | undefined, clamp: (q: Quad) => Quad): OcrWord {
  const last = d.symbols.length - 1;
  return {
    text: d.text,
    box: clamp(d.box),
    confidence: d.confidence,
    symbols: d.symbols.map((s, i) => ({
      text: s.text,
      box: clamp(s.box),
      confidence: s.confidence,
      ...(i === last && brk ? { break: brk } : {}),
    })),
    languages: lang ? [{ languageCode: lang, confidence: 1 }] : [],
  };
}

/** Google's `text`: symbols joined, a space for SPACE/SURE_SPACE, a newline at each line end. */
function textOf(blocks: readonly OcrBlock[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    for (const p of b.paragraphs) {
      for (const w of p.words) {
        parts.push(w.text);
        const brk = w.symbols[w.symbols.length - 1]?.break;
        if (brk === 'SPACE' || brk === 'SURE_SPACE') parts.push(' ');
        else if (brk) parts.push('\n');
      }
    }
  }
  return parts.join('');
}

function enclose(frame: ReadingFrame, parts: ReadonlyArray<{ box: Quad }>, clamp: (q: Quad) => Quad): Quad {
  const box: FrameBox = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const part of parts) {
    const b = frameBoxOf(frame, part.box);
    box.x0 = Math.min(box.x0, b.x0);
    box.y0 = Math.min(box.y0, b.y0);
    box.x1 = Math.max(box.x1, b.x1);
    box.y1 = Math.max(box.y1, b.y1);
  }
  return clamp(quadOfFrameBox(frame, box));
}

function clamper(page: LayoutPage): (q: Quad) => Quad {
  const fix = (v: number, max: number) => Math.round(Math.min(Math.max(v, 0), Math.max(max, 0)));
  return (q) => q.map((p) => ({ x: fix(p.x, page.width), y: fix(p.y, page.height) })) as Quad;
}

function weighLanguages(parts: ReadonlyArray<{ languages: DetectedLanguage[]; weight: number }>): DetectedLanguage[] {
  const weights = new Map<string, number>();
  for (const p of parts) addWeights(weights, p.languages, p.weight);
  return languagesByWeight(weights);
}

const LETTER = /\p{L}/gu;
function letterCount(text: string): number {
  return text.match(LETTER)?.length ?? 0;
}

function letters(words: readonly OcrWord[]): number {
  return words.reduce((s, w) => s + letterCount(w.text), 0);
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
}
