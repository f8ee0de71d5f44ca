import { type Bounds as Box, imageQuad, quadBounds, rectQuad } from '../../geometry.ts';
import type { Quad } from '../../ocr-types.ts';

/**
 * PP-OCR's detector (trained on Chinese and English) cuts Arabic and other widely spaced lines
 * into tilted word-sized boxes and misses some words. Tesseract reads whole lines far better than
 * fragments (its language model needs the context), and a right-to-left line read as fragments
 * would be laid out left to right. So for Tesseract-read images, boxes on one row are joined back
 * into a line: roughly horizontal boxes of similar height that overlap vertically and sit
 * within two line heights of each other; and an image that holds a single such row (a scanned text
 * line, a word crop) is read whole, across its full width.
 */
const MAX_SLOPE = 0.35;
const MIN_VERTICAL_OVERLAP = 0.5;
const MAX_HEIGHT_RATIO = 3;
const MAX_GAP_IN_HEIGHTS = 2;
/** A lone row at least this share of the image's height means the image is that line. */
const SINGLE_LINE_SHARE = 0.4;

/**
 * The axis-aligned box of a roughly horizontal quad, whichever way round its corners are: PP-OCR's
 * 0/180° classifier, trained on Chinese and Latin, turns many Arabic words upside down, and
 * Tesseract reads upright crops only.
 */
function horizontalBox(q: Quad): Box | undefined {
  const dx = Math.abs(q[1].x - q[0].x);
  if (dx === 0 || Math.abs(q[1].y - q[0].y) / dx > MAX_SLOPE) return undefined;
  return quadBounds(q);
}

function joins(row: Box, b: Box): boolean {
  const hr = row.y1 - row.y0;
  const hb = b.y1 - b.y0;
  if (Math.max(hr, hb) > MAX_HEIGHT_RATIO * Math.min(hr, hb)) return false;
  const overlap = Math.min(row.y1, b.y1) - Math.max(row.y0, b.y0);
  if (overlap < MIN_VERTICAL_OVERLAP * Math.min(hr, hb)) return false;
  const gap = b.x0 - row.x1;
  return gap <= MAX_GAP_IN_HEIGHTS * Math.max(hr, hb);
}

/**
 * The rows are pieces of one line (the detector misses parts of Arabic lines, leaving gaps): they
 * all sit in one band no taller than 1.5 rows, and that band fills much of the image.
 */
function isSingleLine(rows: readonly Box[], pageHeight: number): boolean {
  if (rows.length === 0) return false;
  const y0 = Math.min(...rows.map((r) => r.y0));
  const y1 = Math.max(...rows.map((r) => r.y1));
  const tallest = Math.max(...rows.map((r) => r.y1 - r.y0));
  return y1 - y0 <= 1.5 * tallest && y1 - y0 >= SINGLE_LINE_SHARE * pageHeight;
}

/**
 * Joins the detector's boxes that continue one another on a row; others are returned unchanged.
 *
 * @example mergeRowQuads(quads, image).length <= quads.length
 */
export function mergeRowQuads(quads: readonly Quad[], page: { width: number; height: number }): Quad[] {
  const kept: Quad[] = [];
  const boxes: Box[] = [];
  for (const q of quads) {
    const b = horizontalBox(q);
    if (b === undefined) kept.push(q);
    else boxes.push(b);
  }
  boxes.sort((a, b) => a.x0 - b.x0);
  const rows: Array<{ box: Box; parts: number }> = [];
  for (const b of boxes) {
    const row = rows.find((r) => joins(r.box, b));
    if (row === undefined) {
      rows.push({ box: { ...b }, parts: 1 });
      continue;
    }
    row.box = {
      x0: Math.min(row.box.x0, b.x0),
      y0: Math.min(row.box.y0, b.y0),
      x1: Math.max(row.box.x1, b.x1),
      y1: Math.max(row.box.y1, b.y1),
    };
    row.parts += 1;
  }
  if (
    kept.length === 0 &&
    isSingleLine(
      rows.map((r) => r.box),
      page.height,
    )
  ) {
    return [imageQuad(page)];
  }
  return [...kept, ...rows.map(({ box }) => rectQuad(box.x0, box.y0, box.x1, box.y1))];
}
