import type { Quad } from '../ocr-types.ts';
import { quadSize } from '../geometry.ts';

/** An image this small, or this thin, is usually a single word or line (a crop), not a photo or a page. */
const CROP_MAX_SIDE = 256;
const CROP_MAX_SHORT_SIDE = 200;
/**
 * A crop read whole is one recognizer input of 48 rows: a printed line is at most ~35 times as long as
 * tall (ocr-dev's scanned lines), while a 60 000 × 10 bomb read whole would ask for gigabytes.
 */
const CROP_MAX_ASPECT = 64;
/**
 * On a crop the text fills much of its height. When every box found is thinner than this share of
 * it, the detector has found a texture (the dots of an LED sign, a grille), not lines: such boxes
 * are read as confident noise, while the crop read whole is the word.
 */
const CROP_MIN_LINE_SHARE = 0.1;

/** Whether an image of this size is a word or line crop, read whole when no line is found on it. */
export function isCrop(size: { width: number; height: number }): boolean {
  const long = Math.max(size.width, size.height),
    short = Math.min(size.width, size.height);
  return (long <= CROP_MAX_SIDE || short <= CROP_MAX_SHORT_SIDE) && long <= CROP_MAX_ASPECT * Math.max(1, short);
}

/**
 * The detected lines of a crop worth reading: all of them, or none when every one is a thin sliver of
 * texture (then the pipeline reads the crop whole, as when nothing was found).
 *
 * @example linesOfCrop({ width: 324, height: 153 }, rowsOfLedDots) // []
 */
export function linesOfCrop(size: { width: number; height: number }, quads: readonly Quad[]): readonly Quad[] {
  const least = CROP_MIN_LINE_SHARE * Math.min(size.width, size.height);
  return quads.every((q) => quadSize(q).height < least) ? [] : quads;
}
