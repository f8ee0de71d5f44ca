import type { DecodedImage } from '../decode/decode-image.ts';
import { quadSize } from '../geometry.ts';
import type { Quad } from '../ocr-types.ts';

/** An RGB crop of one text line, upright, `height` rows. */
export interface LineCrop {
  readonly width: number;
  readonly height: number;
  /** Interleaved RGB. */
  readonly rgb: Uint8Array;
}

/** The crop's luma (ITU-R BT.601 weights), rounded to 0–255: what binarisation and edge measures read. */
export function greyOf(crop: LineCrop): Uint8Array {
  const out = new Uint8Array(crop.width * crop.height);
  for (let i = 0, j = 0; i < out.length; i += 1, j += 3) {
    out[i] = (crop.rgb[j] * 299 + crop.rgb[j + 1] * 587 + crop.rgb[j + 2] * 114 + 500) / 1000;
  }
  return out;
}

/** Coefficients of the projective map of the unit square onto the quad (Heckbert, "Fundamentals of Texture Mapping", 1989). */
function squareToQuad(q: Quad): { a: number; b: number; c: number; d: number; e: number; f: number; g: number; h: number } {
  const [p0, p1, p2, p3] = q;
  const dx1 = p1.x - p2.x,
    dx2 = p3.x - p2.x,
    dx3 = p0.x - p1.x + p2.x - p3.x;
  const dy1 = p1.y - p2.y,
    dy2 = p3.y - p2.y,
    dy3 = p0.y - p1.y + p2.y - p3.y;
  let g = 0,
    h = 0;
  const den = dx1 * dy2 - dx2 * dy1;
  if ((Math.abs(dx3) > 1e-9 || Math.abs(dy3) > 1e-9) && Math.abs(den) > 1e-12) {
    g = (dx3 * dy2 - dx2 * dy3) / den;
    h = (dx1 * dy3 - dx3 * dy1) / den;
  }
  return {
    a: p1.x - p0.x + g * p1.x,
    b: p3.x - p0.x + h * p3.x,
    c: p0.x,
    d: p1.y - p0.y + g * p1.y,
    e: p3.y - p0.y + h * p3.y,
    f: p0.y,
    g,
    h,
  };
}

/** OpenCV's `INTER_CUBIC` coefficient. */
const CUBIC_A = -0.75;
/** Scratch for the cubic's weights along x and y: the hot loop allocates nothing. */
const WX = new Float64Array(4);
const WY = new Float64Array(4);

/** Keys' cubic weights for the taps at −1, 0, 1, 2 around a sample `t` ∈ [0, 1) past tap 0 (they sum to 1). */
function cubicWeights(t: number, out: Float64Array): void {
  const u = 1 - t;
  out[0] = ((CUBIC_A * (t + 1) - 5 * CUBIC_A) * (t + 1) + 8 * CUBIC_A) * (t + 1) - 4 * CUBIC_A;
  out[1] = ((CUBIC_A + 2) * t - (CUBIC_A + 3)) * t * t + 1;
  out[2] = ((CUBIC_A + 2) * u - (CUBIC_A + 3)) * u * u + 1;
  out[3] = 1 - out[0] - out[1] - out[2];
}

/**
 * Warps the quad to an upright `outWidth × outHeight` RGB crop (cubic when enlarging; bilinear, with
 * supersampling when shrinking so thin strokes are averaged rather than skipped). Corner 0 lands top-left, corner 1
 * top-right: to read a line rotated by 90° or 180°, pass the quad with its corners shifted.
 */
export function cropLine(image: DecodedImage, quad: Quad, outWidth: number, outHeight: number): LineCrop {
  const { a, b, c, d, e, f, g, h } = squareToQuad(quad);
  const { width: srcW, height: srcH } = quadSize(quad);
  const ssX = Math.max(1, Math.min(4, Math.round(srcW / outWidth)));
  const ssY = Math.max(1, Math.min(4, Math.round(srcH / outHeight)));
  const samples = ssX * ssY;
  // Enlarged crops (small print) are interpolated with a cubic, as OpenCV's INTER_CUBIC: strokes and the
  // gaps between words stay sharper than bilinear's (ocr-dev forms 77.0 / 80.9 → 78.1 / 83.2, scenes
  // 59.0 / 49.2 → 59.5 / 52.3 on tune / check; receipts 88.6 / 91.3 → 88.2 / 91.1; same time).
  const cubic = samples === 1 && srcH < outHeight;
  // Most document lines are upright rectangles: then x follows the column and y the row alone.
  if (samples === 1 && g === 0 && h === 0 && b === 0 && d === 0) return cropUpright(image, { a, c, e, f }, outWidth, outHeight, cubic);
  const { width: iw, height: ih, rgb: src } = image;
  const out = new Uint8Array(outWidth * outHeight * 3);
  // The hot loop of recognition's pre-processing: plain numbers only (no tuple per sample).
  for (let j = 0; j < outHeight; j++) {
    for (let i = 0; i < outWidth; i++) {
      let r = 0,
        gr = 0,
        bl = 0;
      for (let sy = 0; sy < ssY; sy++) {
        const v = (j + (sy + 0.5) / ssY) / outHeight;
        for (let sx = 0; sx < ssX; sx++) {
          const u = (i + (sx + 0.5) / ssX) / outWidth;
          const w = g * u + h * v + 1;
          // Pixel centres are at integer + 0.5; clamp to the border (OpenCV's BORDER_REPLICATE).
          const x = Math.min(iw - 1, Math.max(0, (a * u + b * v + c) / w - 0.5));
          const y = Math.min(ih - 1, Math.max(0, (d * u + e * v + f) / w - 0.5));
          if (cubic) {
            const x0 = Math.floor(x),
              y0 = Math.floor(y);
            cubicWeights(x - x0, WX);
            cubicWeights(y - y0, WY);
            const wx0 = WX[0],
              wx1 = WX[1],
              wx2 = WX[2],
              wx3 = WX[3];
            const xm = (x0 > 0 ? x0 - 1 : 0) * 3,
              xa = x0 * 3,
              xb = (x0 + 1 < iw ? x0 + 1 : iw - 1) * 3,
              xc = (x0 + 2 < iw ? x0 + 2 : iw - 1) * 3;
            for (let m = 0; m < 4; m++) {
              const yy = y0 - 1 + m;
              const row = (yy < 0 ? 0 : yy >= ih ? ih - 1 : yy) * iw * 3;
              const wy = WY[m];
              r += wy * (wx0 * src[row + xm] + wx1 * src[row + xa] + wx2 * src[row + xb] + wx3 * src[row + xc]);
              gr += wy * (wx0 * src[row + xm + 1] + wx1 * src[row + xa + 1] + wx2 * src[row + xb + 1] + wx3 * src[row + xc + 1]);
              bl += wy * (wx0 * src[row + xm + 2] + wx1 * src[row + xa + 2] + wx2 * src[row + xb + 2] + wx3 * src[row + xc + 2]);
            }
            continue;
          }
          const x0 = Math.floor(x),
            y0 = Math.floor(y);
          const x1 = Math.min(iw - 1, x0 + 1),
            y1 = Math.min(ih - 1, y0 + 1);
          const ax = x - x0,
            ay = y - y0;
          const i00 = (y0 * iw + x0) * 3,
            i10 = (y0 * iw + x1) * 3,
            i01 = (y1 * iw + x0) * 3,
            i11 = (y1 * iw + x1) * 3;
          let top = src[i00] + (src[i10] - src[i00]) * ax;
          let bottom = src[i01] + (src[i11] - src[i01]) * ax;
          r += top + (bottom - top) * ay;
          top = src[i00 + 1] + (src[i10 + 1] - src[i00 + 1]) * ax;
          bottom = src[i01 + 1] + (src[i11 + 1] - src[i01 + 1]) * ax;
          gr += top + (bottom - top) * ay;
          top = src[i00 + 2] + (src[i10 + 2] - src[i00 + 2]) * ax;
          bottom = src[i01 + 2] + (src[i11 + 2] - src[i01 + 2]) * ax;
          bl += top + (bottom - top) * ay;
        }
      }
      const o = (j * outWidth + i) * 3;
      if (cubic) {
        // A cubic overshoots at edges; a Uint8Array would wrap, not clamp.
        r = Math.min(255, Math.max(0, r));
        gr = Math.min(255, Math.max(0, gr));
        bl = Math.min(255, Math.max(0, bl));
      }
      out[o] = Math.round(r / samples);
      out[o + 1] = Math.round(gr / samples);
      out[o + 2] = Math.round(bl / samples);
    }
  }
  return { width: outWidth, height: outHeight, rgb: out };
}

/** A source coordinate along one axis: the cell's centre mapped and clamped to the image (as `cropLine`). */
function sourceAt(scale: number, offset: number, cell: number, cells: number, limit: number): number {
  const t = (cell + 0.5) / cells;
  return Math.min(limit - 1, Math.max(0, scale * t + offset - 0.5));
}

/**
 * The 4 taps (cubic) or 2 (bilinear; the other two repeat the second) each of `cells` output cells reads
 * along one axis of `limit` source pixels, clamped to the image as `cropLine` clamps, with their weights
 * (bilinear: the fraction past the first tap).
 */
function axisTaps(scale: number, offset: number, cells: number, limit: number, cubic: boolean): { at: Int32Array; weights: Float64Array } {
  const at = new Int32Array(cells * 4);
  const weights = new Float64Array(cells * 4);
  for (let i = 0; i < cells; i++) {
    const p = sourceAt(scale, offset, i, cells, limit);
    const p0 = Math.floor(p);
    const p1 = p0 + 1 < limit ? p0 + 1 : limit - 1;
    at.set(cubic ? [p0 > 0 ? p0 - 1 : 0, p0, p1, p0 + 2 < limit ? p0 + 2 : limit - 1] : [p0, p1, p1, p1], i * 4);
    if (cubic) cubicWeights(p - p0, weights.subarray(i * 4, i * 4 + 4));
    else weights[i * 4] = p - p0;
  }
  return { at, weights };
}

/**
 * `cropLine` for an upright rectangle (x = a·u + c, y = e·v + f) sampled once per pixel: separable,
 * so it runs as a horizontal pass over the source rows the crop touches, then a vertical pass. The
 * sums are the general loop's, in its order, so the pixels are the same; the taps are computed once
 * per column and row instead of once per pixel (small print enlarged to the recognizer's rows: half the time).
 */
function cropUpright(
  image: DecodedImage,
  map: { a: number; c: number; e: number; f: number },
  outWidth: number,
  outHeight: number,
  cubic: boolean,
): LineCrop {
  const { width: iw, height: ih, rgb: src } = image;
  // Per column and per row: the source columns (as byte offsets) and rows each reads, and their weights.
  const cols = axisTaps(map.a, map.c, outWidth, iw, cubic);
  const colAt = cols.at.map((x) => x * 3);
  const colW = cols.weights;
  const { at: rowAt, weights: rowW } = axisTaps(map.e, map.f, outHeight, ih, cubic);
  // Rows run upwards when the quad is turned 180° (corner 0 bottom-right).
  const first = Math.min(...rowAt),
    last = Math.max(...rowAt);
  // Horizontal pass: every touched source row, resampled at every column.
  const stride = outWidth * 3;
  const across = new Float64Array((last - first + 1) * stride);
  for (let y = first; y <= last; y++) {
    const row = y * iw * 3;
    const o = (y - first) * stride;
    for (let i = 0; i < outWidth; i++) {
      const k = i * 4;
      for (let ch = 0; ch < 3; ch++) {
        const at = row + ch;
        if (cubic) {
          across[o + i * 3 + ch] =
            colW[k] * src[at + colAt[k]] +
            colW[k + 1] * src[at + colAt[k + 1]] +
            colW[k + 2] * src[at + colAt[k + 2]] +
            colW[k + 3] * src[at + colAt[k + 3]];
        } else {
          const s0 = src[at + colAt[k]];
          across[o + i * 3 + ch] = s0 + (src[at + colAt[k + 1]] - s0) * colW[k];
        }
      }
    }
  }
  // Vertical pass.
  const out = new Uint8Array(outWidth * outHeight * 3);
  for (let j = 0; j < outHeight; j++) {
    const o = j * stride;
    const [r0, r1, r2, r3] = Array.from(rowAt.subarray(j * 4, j * 4 + 4), (r) => (r - first) * stride);
    const [w0, w1, w2, w3] = rowW.subarray(j * 4, j * 4 + 4);
    for (let q = 0; q < stride; q++) {
      if (cubic) {
        const sum = w0 * across[r0 + q] + w1 * across[r1 + q] + w2 * across[r2 + q] + w3 * across[r3 + q];
        // A cubic overshoots at edges; a Uint8Array would wrap, not clamp.
        out[o + q] = Math.round(Math.min(255, Math.max(0, sum)));
      } else {
        const top = across[r0 + q];
        out[o + q] = Math.round(top + (across[r1 + q] - top) * w0);
      }
    }
  }
  return { width: outWidth, height: outHeight, rgb: out };
}

/** Width of a crop scaled to `height` rows, keeping the quad's aspect ratio. */
export function scaledWidth(quad: Quad, height: number, maxWidth = Infinity): number {
  const { width, height: h } = quadSize(quad);
  return Math.max(1, Math.min(maxWidth, Math.ceil((height * width) / Math.max(1, h))));
}
