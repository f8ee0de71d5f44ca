import type { DecodedImage } from '../../decode/decode-image.ts';
import { quadBounds, quadCentre, rectQuad } from '../../geometry.ts';
import type { Quad } from '../../ocr-types.ts';
import type { LineReading } from '../recognizer.ts';
import { type PageRegion, ruledColumns } from './ruled-columns.ts';
import type { TesseractRecognizer } from './tesseract-recognizer.ts';

/** A block of lines Tesseract left out of a column is at least this many body lines tall (a stray mark or a rule's blot is not). */
const DROPPED_BLOCK_LINES = 3;

/**
 * Ink blobs up to this share of a body line's height squared are specks, whited out before Tesseract reads
 * the page (`despeckle`): about a tenth of a line across, smaller than a full stop. On the 30 NZZ front pages
 * of 1826–1860 that ocr-dev does not hold, 1 − CER 86.1 / 89.4 → 88.5 / 90.8 (0.004: 86.5 / 90.0; 0.015:
 * 88.1 / 89.5, stops lost); their dusty and bleed-through bilevel scans gain 5–11 points.
 */
const SPECK_SHARE = 0.008;

const top = (q: Quad) => quadBounds(q).y0;
const bottom = (q: Quad) => quadBounds(q).y1;

/**
 * The detector's lines whose middle lies in the region, cut to its sides (a line the detector ran across
 * a ruled gutter is two lines, one per column), top to bottom; slivers under a line height wide go.
 */
function linesIn(region: PageRegion, lines: readonly Quad[]): Quad[] {
  const inside: Quad[] = [];
  for (const line of lines) {
    const { y } = quadCentre(line);
    if (y < region.y || y >= region.y + region.height) continue;
    const bounds = quadBounds(line);
    const x0 = Math.max(bounds.x0, region.x);
    const x1 = Math.min(bounds.x1, region.x + region.width);
    if (x1 - x0 >= bounds.y1 - bounds.y0) inside.push(rectQuad(x0, bounds.y0, x1, bounds.y1));
  }
  return inside.sort((a, b) => quadCentre(a).y - quadCentre(b).y);
}

/** Whether one of Tesseract's line boxes (not one as tall as a block) holds the line's middle, give or take a quarter line. */
function isRead(line: Quad, boxes: readonly Quad[], body: number): boolean {
  const { x, y } = quadCentre(line);
  return boxes.some((box) => {
    const height = bottom(box) - top(box);
    if (height > DROPPED_BLOCK_LINES * body) return false;
    return x >= box[0].x && x <= box[1].x && y >= top(box) - height / 4 && y <= bottom(box) + height / 4;
  });
}

/** The detector's lines of a column that Tesseract's layout left out, where they make a block `DROPPED_BLOCK_LINES` tall. */
export function droppedBlocks(lines: readonly Quad[], boxes: readonly Quad[], body: number): Quad[] {
  const dropped: Quad[] = [];
  let run: Quad[] = [];
  const close = () => {
    if (run.length > 0 && bottom(run[run.length - 1]) - top(run[0]) >= DROPPED_BLOCK_LINES * body) dropped.push(...run);
    run = [];
  };
  for (const line of lines) {
    if (isRead(line, boxes, body)) close();
    else run.push(line);
  }
  close();
  return dropped;
}

/**
 * A page read by Tesseract's layout analysis and line reader, a region at a time: the page is cut at its
 * column rules (`ruledColumns`), what lies outside the columns read with Tesseract's own layout, each column
 * as one column, its specks whited out first. Tesseract's layout sometimes leaves a block of a column's lines
 * out (eight to twenty body lines of a Fraktur page, at one scale and not another): the detector's lines there
 * (`lines`, `body` their median height) are read one at a time (`readLines`) and put back in their place.
 *
 * @example const page = await readRuledPage(image, lines, body, tesseract, ['frk'], 0.45, readLines);
 */
export async function readRuledPage(
  image: DecodedImage,
  lines: readonly Quad[],
  body: number,
  tesseract: TesseractRecognizer,
  traineddata: readonly string[],
  scale: number,
  readLines: (quads: readonly Quad[]) => Promise<LineReading[]>,
): Promise<Array<{ box: Quad; reading: LineReading }>> {
  const page: Array<{ box: Quad; reading: LineReading }> = [];
  for (const region of ruledColumns(image)) {
    const read: Array<{ box: Quad; reading: LineReading }> = await tesseract.recognizePage(image, traineddata, {
      scale,
      region,
      speckArea: Math.round(SPECK_SHARE * body * body),
    });
    const dropped = region.column
      ? droppedBlocks(
          linesIn(region, lines),
          read.map((l) => l.box),
          body,
        )
      : [];
    if (dropped.length === 0) {
      page.push(...read);
      continue;
    }
    const again = await readLines(dropped);
    const column = [...read, ...dropped.map((box, k) => ({ box, reading: again[k] }))];
    page.push(...column.sort((a, b) => quadCentre(a.box).y - quadCentre(b.box).y));
  }
  return page;
}
