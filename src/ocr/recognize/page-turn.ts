import sharp from 'sharp';
import type { DecodedImage } from '../decode/decode-image.ts';
import { quadDirection } from '../geometry.ts';
import type { Point, Quad } from '../ocr-types.ts';

/** Quarter turns clockwise: 1 is a page whose lines run down, 2 upside down, 3 lines running up. */
export type QuarterTurns = 0 | 1 | 2 | 3;

/**
 * Upside down is read only when it holds twice upright's length of text (upright is the prior). A
 * turned page's axis needs only the majority: seen at the detector's first, coarse size, a turned
 * report's stacked short lines and table cells are found as boxes across them (36 % of its length).
 */
const OVER = 2;
/** Too few lines to tell a turned page from a photo with a turned sign. */
const MIN_LINES = 6;
/** Lines within this angle of a quarter turn count for it. */
const MAX_OFF_DEGREES = 30;

/** A detected line: its quad with corner 0→1 along the line, and the direction classifier's word on it, when asked. */
export interface LineVote {
  quad: Quad;
  /** Probability that the line reads upside down in `quad` (`classifyUpsideDown`); absent: not asked, read as upright. */
  upsideDown?: number;
}

/**
 * How far a page is turned. Each line votes, by its length, for the way its quad runs, or the opposite
 * way when the classifier thinks it more likely upside down than not; on faded print one line's answer
 * is noise (a turned receipt's lines split 58 to 60 at the 0.9 that turns a single line), over a page
 * the majority is clear. The axis comes first: a page reads along its lines' vertical axis when that
 * holds more of their length than the horizontal one, and then whichever way up or down most of it
 * reads. Along the horizontal axis, upright is the prior: upside down needs twice upright's length. A page
 * scanned sideways or upside down is then read upright (`turnImage`), so every later stage sees what
 * it sees on upright pages: detection's probe measured a turned line's length as its height, and
 * layout's column test works on upright geometry. A photo with a few turned signs stays as it is.
 *
 * @example const turn = pageTurn(lines.map((quad, i) => ({ quad, upsideDown: p[i] })));
 */
export function pageTurn(lines: readonly LineVote[]): QuarterTurns {
  if (lines.length < MIN_LINES) return 0;
  const weight = [0, 0, 0, 0];
  for (const { quad, upsideDown = 0 } of lines) {
    const d = quadDirection(quad);
    const degrees = ((Math.atan2(d.y, d.x) * 180) / Math.PI + (upsideDown > 0.5 ? 180 : 0) + 360) % 360;
    const turn = Math.round(degrees / 90) % 4;
    const off = Math.min(Math.abs(degrees - turn * 90), Math.abs(degrees - 360));
    if (off <= MAX_OFF_DEGREES) weight[turn] += Math.hypot(d.x, d.y) / 2;
  }
  const [right, down, left, up] = weight;
  if (down + up > right + left) return down >= up ? 1 : 3;
  return left > OVER * right && left > down + up ? 2 : 0;
}

/** The image turned back by `turns` quarter turns (counter-clockwise), so a page turned by `turns` reads upright. */
export async function turnImage(image: DecodedImage, turns: QuarterTurns): Promise<DecodedImage> {
  if (turns === 0) return image;
  const { data, info } = await sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
    .rotate(360 - 90 * turns)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { ...image, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * A point of the image turned upright by `turnImage` in the pixels of the image as it came, whose
 * size is `size`.
 */
export function unturnPoint(p: Point, turns: QuarterTurns, size: { width: number; height: number }): Point {
  const { width: w, height: h } = size;
  switch (turns) {
    case 0:
      return p;
    case 1: // upright = the original turned counter-clockwise: its x runs down the original, its y leftwards
      return { x: w - p.y, y: p.x };
    case 2:
      return { x: w - p.x, y: h - p.y };
    case 3:
      return { x: p.y, y: h - p.x };
  }
}

/** Quads found on the upright image, in the pixels of the image as it came (corner order kept: reading order stays). */
export function unturnQuads(quads: readonly Quad[], turns: QuarterTurns, size: { width: number; height: number }): Quad[] {
  return quads.map((q) => q.map((p) => unturnPoint(p, turns, size)) as Quad);
}
