import type { Quad } from '../ocr-types.ts';
import type { DecodedImage } from './decode-image.ts';

/** Pixels read to judge an image (a grid of about this many, whatever its size). */
const SAMPLES = 10_000;
/** Paper: light (every channel above this) and grey (channels within `MAX_CHROMA` of each other). */
const MIN_LIGHT = 150;
const MAX_CHROMA = 40;

type Region = { x0: number; y0: number; x1: number; y1: number };

/** Offsets into `rgb` of a grid of about `SAMPLES` pixels of `region` (offsets, not views: this runs on every image). */
function samples(image: DecodedImage, region: Region): number[] {
  const step = Math.max(1, Math.sqrt(((region.x1 - region.x0) * (region.y1 - region.y0)) / SAMPLES));
  const out: number[] = [];
  for (let y = region.y0 + step / 2; y < region.y1; y += step) {
    const row = Math.floor(y) * image.width;
    for (let x = region.x0 + step / 2; x < region.x1; x += step) out.push((row + Math.floor(x)) * 3);
  }
  return out;
}

function shareOfPaper(rgb: Uint8Array, offsets: readonly number[], gain: readonly number[] = [1, 1, 1]): number {
  let paper = 0;
  for (const i of offsets) {
    const r = Math.min(255, rgb[i] * gain[0]),
      g = Math.min(255, rgb[i + 1] * gain[1]),
      b = Math.min(255, rgb[i + 2] * gain[2]);
    if (Math.min(r, g, b) > MIN_LIGHT && Math.max(r, g, b) - Math.min(r, g, b) < MAX_CHROMA) paper++;
  }
  return offsets.length === 0 ? 0 : paper / offsets.length;
}

/**
 * The share of the image that is plain light paper. Scans and photos of pages, receipts and forms
 * are mostly paper (87–100 % on ocr-dev's tune split); street photos hardly ever are (0–33 %).
 *
 * @example if (paperShare(image) >= PAGE_MIN_PAPER) // a document, whatever the client said
 */
export function paperShare(image: DecodedImage): number {
  return shareOfPaper(image.rgb, samples(image, { x0: 0, y0: 0, x1: image.width, y1: image.height }));
}

/** At least this share of paper: the image is a page, and its words are text however faintly read. */
export const PAGE_MIN_PAPER = 0.5;

/** A block of at least this many lines can be a page on its own; ocr-dev's street photos hold 1–12, its receipts and forms 18–167. */
export const PAGE_MIN_LINES = 16;
/** The white point: this quantile of each channel inside the text's region. */
const WHITE_QUANTILE = 0.95;
/** Darker than this white point, the region is no paper however it is lit. */
const MIN_WHITE = 64;

/**
 * A photo, not a page: less than half of it is paper, and its lines are not a block of many lines on
 * paper of their own (a receipt photographed on a table, a page in dim warm light: `paperShareUnder`).
 * A photo's lines are read as scene text (`recognize-text.ts`) and, in TEXT_DETECTION, lose their doubtful words.
 *
 * @example const photo = isPhoto(image, detectedQuads);
 */
export function isPhoto(image: DecodedImage, quads: readonly Quad[], wholePaper = paperShare(image)): boolean {
  if (wholePaper >= PAGE_MIN_PAPER) return false;
  return quads.length < PAGE_MIN_LINES || paperShareUnder(image, quads) < PAGE_MIN_PAPER;
}

/**
 * The share of paper in the region the lines cover, with its white point (each channel's 95th
 * percentile there) taken as white: a receipt photographed on a table, or a page in dim warm light,
 * is paper where its lines are, though little of the frame is light grey. Only for a block of many
 * lines (`PAGE_MIN_LINES`): in a street photo the brightest surface around a few signs is no paper.
 *
 * @example if (paperShareUnder(image, quads) >= PAGE_MIN_PAPER) // the lines are printed on paper
 */
export function paperShareUnder(image: DecodedImage, quads: readonly Quad[]): number {
  // A loop, not Math.min(...): a hostile image can hold tens of thousands of boxes.
  const region = { x0: image.width, y0: image.height, x1: 0, y1: 0 };
  for (const q of quads)
    for (const p of q) {
      region.x0 = Math.max(0, Math.min(region.x0, p.x));
      region.y0 = Math.max(0, Math.min(region.y0, p.y));
      region.x1 = Math.min(image.width, Math.max(region.x1, p.x));
      region.y1 = Math.min(image.height, Math.max(region.y1, p.y));
    }
  if (!(region.x1 > region.x0 && region.y1 > region.y0)) return 0;
  const offsets = samples(image, region);
  if (offsets.length === 0) return 0;
  const white = [0, 1, 2].map((c) => {
    const values = offsets.map((i) => image.rgb[i + c]).sort((a, b) => a - b);
    return values[Math.floor((values.length - 1) * WHITE_QUANTILE)];
  });
  if (Math.min(...white) < MIN_WHITE) return 0;
  return shareOfPaper(
    image.rgb,
    offsets,
    white.map((w) => 255 / w),
  );
}
