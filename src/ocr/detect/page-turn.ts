import sharp from 'sharp';
import type { DecodedImage } from '../decode/decode-image.ts';
import type { Point, Quad } from '../ocr-types.ts';

/** Quarter turns clockwise: 1 is a page whose lines run down, 2 upside down, 3 lines running up. */
export type QuarterTurns = 0 | 1 | 2 | 3;

/** A page is read turned only when most of its text (by length) runs one way, and it has enough lines to tell. */
const MIN_SHARE = 0.6;
const MIN_LINES = 6;
/** Lines within this angle of a quarter turn count for it. */
const MAX_OFF_DEGREES = 30;

/**
 * How far a page is turned, from its lines in reading order (corner 0→1 the reading direction, as
 * `orientLines` leaves them): the quarter turn most of its text's length runs along. A page scanned
 * sideways or upside down is then read upright (`turnImage`) so every later stage sees what it
 * sees on upright pages: detection in horizontal strips cut its vertical lines, and layout's
 * column test works on upright geometry. A photo with a few turned signs stays as it is.
 *
 * @example const turns = pageTurn(oriented.quads);
 */
export function pageTurn(quads: readonly Quad[]): QuarterTurns {
  if (quads.length < MIN_LINES) return 0;
  const weight = [0, 0, 0, 0];
  let total = 0;
  for (const q of quads) {
    const dx = q[1].x - q[0].x + (q[2].x - q[3].x);
    const dy = q[1].y - q[0].y + (q[2].y - q[3].y);
    const length = Math.hypot(dx, dy) / 2;
    total += length;
    const degrees = ((Math.atan2(dy, dx) * 180) / Math.PI + 360) % 360;
    const turn = Math.round(degrees / 90) % 4;
    if (Math.abs(degrees - turn * 90) <= MAX_OFF_DEGREES || Math.abs(degrees - 360) <= MAX_OFF_DEGREES) weight[turn] += length;
  }
  const best = weight.indexOf(Math.max(...weight)) as QuarterTurns;
  return best !== 0 && weight[best] >= MIN_SHARE * total ? best : 0;
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
