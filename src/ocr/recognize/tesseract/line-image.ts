import { greyOf, type LineCrop } from '../crop-line.ts';
import { otsuThreshold } from '../ink-profile.ts';

/** The image Tesseract reads, and how to map its pixel columns back to the crop. */
export interface TesseractLineImage {
  /** Binary PGM (P5): Leptonica reads it without a PNG encode/decode round trip. */
  pgm: Uint8Array;
  /** Crop x = (image x − pad) / scale. */
  scale: number;
  pad: number;
  /** No contrast to speak of: Tesseract would invent letters on it (a blank crop read in mode 7 gives "Sn"). */
  blank: boolean;
}

/** Grey levels a crop must span to hold any text. */
const MIN_CONTRAST = 24;

/**
 * Tesseract's LSTM models were trained on dark text on light paper, lines ~30–50 px high with
 * some margin (https://tesseract-ocr.github.io/tessdoc/ImproveQuality.html): so greyscale, light
 * background, small crops upscaled to a comfortable height and large ones brought down.
 */
export const MIN_HEIGHT = 48;
const MAX_HEIGHT = 128;
const PAD_FRACTION = 0.25;

/**
 * True when the text is lighter than its background (white on a dark sign). The background is the
 * Otsu class that fills most of the crop's border ring, where text rarely reaches.
 */
export function isLightOnDark(grey: Uint8Array, width: number, height: number): boolean {
  const histogram = new Float64Array(256);
  for (const v of grey) histogram[v] += 1;
  const threshold = otsuThreshold(histogram);
  let dark = 0;
  let total = 0;
  const ring = Math.max(1, Math.round(Math.min(width, height) * 0.08));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const inRing = y < ring || y >= height - ring || x < ring || x >= width - ring;
      if (!inRing) continue;
      total += 1;
      if (grey[y * width + x] <= threshold) dark += 1;
    }
  }
  return total > 0 && dark > total / 2;
}

function resizeBilinear(src: Uint8Array, w: number, h: number, nw: number, nh: number): Uint8Array {
  const out = new Uint8Array(nw * nh);
  const sx = w / nw;
  const sy = h / nh;
  for (let y = 0; y < nh; y += 1) {
    const fy = Math.min(h - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const dy = fy - y0;
    for (let x = 0; x < nw; x += 1) {
      const fx = Math.min(w - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const dx = fx - x0;
      const top = src[y0 * w + x0] * (1 - dx) + src[y0 * w + x1] * dx;
      const bottom = src[y1 * w + x0] * (1 - dx) + src[y1 * w + x1] * dx;
      out[y * nw + x] = top * (1 - dy) + bottom * dy + 0.5;
    }
  }
  return out;
}

/** The crop's brightest-decile value: the paper colour to pad with. */
function paperValue(grey: Uint8Array): number {
  const hist = new Uint32Array(256);
  for (const v of grey) hist[v] += 1;
  let seen = 0;
  for (let v = 255; v >= 0; v -= 1) {
    seen += hist[v];
    if (seen >= grey.length * 0.1) return v;
  }
  return 255;
}

/**
 * Greyscale → dark-on-light → height in [48, 128] px (or `height`, when given) → a margin of a quarter
 * of the height in the paper colour → PGM bytes.
 *
 * @example const { pgm, scale, pad } = toTesseractLineImage(cropLine(image, quad, 300, 40));
 */
export function toTesseractLineImage(crop: LineCrop, height?: number): TesseractLineImage {
  let grey = greyOf(crop);
  let lo = 255;
  let hi = 0;
  for (const v of grey) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (isLightOnDark(grey, crop.width, crop.height)) grey = grey.map((v) => 255 - v);
  const scale = (height ?? Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, crop.height))) / crop.height;
  const width = Math.max(1, Math.round(crop.width * scale));
  const rows = Math.max(1, Math.round(crop.height * scale));
  const scaled = scale === 1 ? grey : resizeBilinear(grey, crop.width, crop.height, width, rows);
  const pad = Math.max(4, Math.round(rows * PAD_FRACTION));
  const outW = width + 2 * pad;
  const outH = rows + 2 * pad;
  const header = new TextEncoder().encode(`P5\n${outW} ${outH}\n255\n`);
  const pgm = new Uint8Array(header.length + outW * outH);
  pgm.set(header);
  const pixels = pgm.subarray(header.length);
  pixels.fill(paperValue(scaled));
  for (let y = 0; y < rows; y += 1) pixels.set(scaled.subarray(y * width, (y + 1) * width), (y + pad) * outW + pad);
  return { pgm, scale, pad, blank: hi - lo < MIN_CONTRAST };
}
