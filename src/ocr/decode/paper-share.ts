import type { DecodedImage } from './decode-image.ts';

/** Pixels read to judge an image (a grid of about this many, whatever its size). */
const SAMPLES = 10_000;
/** Paper: light (every channel above this) and grey (channels within `MAX_CHROMA` of each other). */
const MIN_LIGHT = 150;
const MAX_CHROMA = 40;

/**
 * The share of the image that is plain light paper. Scans and photos of pages, receipts and forms
 * are mostly paper (87–100 % on ocr-dev's tune split); street photos hardly ever are (0–33 %).
 *
 * @example if (paperShare(image) >= PAGE_MIN_PAPER) // a document, whatever the client said
 */
export function paperShare(image: DecodedImage): number {
  const { width, height, rgb } = image;
  const step = Math.max(1, Math.sqrt((width * height) / SAMPLES));
  let paper = 0,
    seen = 0;
  for (let y = step / 2; y < height; y += step) {
    const row = Math.floor(y) * width;
    for (let x = step / 2; x < width; x += step) {
      const i = (row + Math.floor(x)) * 3;
      const r = rgb[i],
        g = rgb[i + 1],
        b = rgb[i + 2];
      seen++;
      if (Math.min(r, g, b) > MIN_LIGHT && Math.max(r, g, b) - Math.min(r, g, b) < MAX_CHROMA) paper++;
    }
  }
  return seen === 0 ? 0 : paper / seen;
}

/** At least this share of paper: the image is a page, and its words are text however faintly read. */
export const PAGE_MIN_PAPER = 0.5;
