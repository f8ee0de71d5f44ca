import type { RecognizedLine } from '../recognize/recognized-line.ts';
import { quadHeight, quadLength, sliceQuad } from './reading-frame.ts';
import { median } from './reading-order.ts';

/**
 * A blank gap cuts a line into pieces for the reading order when it is at least `WIDE_GAP` line
 * heights wide and `WIDE_GAP_RATIO` times the line's median word gap. Measured on justified columns
 * rendered by Chromium: a gutter the detector read across is 0.85–1.35 line heights for gutters of
 * 0.8–1.2 em, while the spaces of a loose justified row reach 0.8 too, but then they are all wide;
 * a gap that is merely wide is left for the reading order to judge (a river is not a gutter).
 */
export const WIDE_GAP = 0.55;
export const WIDE_GAP_RATIO = 1.15;

const BLANK = /^\s*$/u;
/** Right-to-left lines are left whole: their pieces would be ordered by their characters' positions. */
const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/**
 * The pieces of a recognized line between its wide blank gaps (the characters' ink extents come from
 * `word-gaps.ts`), each with the part of the line's quad it covers. The PP-OCR detector joins lines
 * across a column gutter narrower than about an em; cut there, the gutter is an empty strip again and
 * the reading order can find the columns. Pieces of one line that are not columns stay in one row,
 * so the text reads as before. Lines without such a gap come back as they are.
 */
export function splitAtWideGaps(line: RecognizedLine): RecognizedLine[] {
  const { chars, box } = line;
  const height = quadHeight(box);
  const length = quadLength(box);
  if (!(height > 0) || !(length > 0)) return [line];
  if (RIGHT_TO_LEFT.test(line.text)) return [line];
  // Word gaps: before each character that follows a blank, the width from the previous character.
  const gaps: Array<{ at: number; width: number }> = [];
  let last = -1;
  for (let i = 0; i < chars.length; i++) {
    if (BLANK.test(chars[i].text)) continue;
    if (last >= 0 && i > last + 1) gaps.push({ at: i, width: chars[i].x0 - chars[last].x1 });
    last = i;
  }
  const typical = median(gaps.map((g) => g.width));
  const minGap = Math.max((WIDE_GAP * height) / length, WIDE_GAP_RATIO * typical);
  const cuts = gaps.filter((g) => g.width >= minGap).map((g) => g.at);
  if (cuts.length === 0) return [line];
  return [0, ...cuts].map((start, k) => {
    const end = k < cuts.length ? cuts[k] : chars.length;
    const own = chars.slice(start, end);
    while (own.length > 0 && BLANK.test(own[own.length - 1].text)) own.pop();
    // The first piece keeps the line's left end and the last its right end; cuts fall on the ink.
    const t0 = k === 0 ? 0 : own[0].x0;
    const t1 = k === cuts.length ? 1 : own[own.length - 1].x1;
    const span = Math.max(t1 - t0, 1e-9);
    const pieceChars = own.map((c) => ({ ...c, x0: (c.x0 - t0) / span, x1: (c.x1 - t0) / span }));
    return {
      ...line,
      box: sliceQuad(box, t0, t1),
      text: pieceChars.map((c) => c.text).join(''),
      confidence: pieceChars.reduce((s, c) => s + c.confidence, 0) / pieceChars.length,
      chars: pieceChars,
    };
  });
}
