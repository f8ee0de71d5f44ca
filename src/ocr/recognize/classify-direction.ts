import { cropLine } from './crop-line.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { quadSize, rotateQuad } from '../geometry.ts';
import type { OnnxModel } from '../models/models.ts';
import type { Point, Quad } from '../ocr-types.ts';

/** PP-OCR direction classifier input (ppocr `ClsResizeImg`: 3×48×192). */
const CLS_HEIGHT = 48;
const CLS_WIDTH = 192;
/** PaddleOCR's `cls_thresh`: flip only when the classifier is this sure. */
const FLIP_CONFIDENCE = 0.9;
/** Lines sampled to decide whether a page of horizontal lines is upside down. */
const PAGE_SAMPLE = 8;
/** Eighths of the sample saying upside down from which every line is classified (a turned page's longest lines can be split 4 to 4). */
const SPLIT_SAMPLE = 3;
/** Crops at least this much taller than wide are read turned by 90° (PaddleOCR uses 1.5). */
const TALL_RATIO = 1.5;

/**
 * The middle of a long line, at most as long as the classifier's input is wide (4 heights): PaddleOCR
 * squeezes the whole line into 192 columns, and a line 40 heights long squeezed 10× is no longer
 * text; the classifier then calls a clean upright line upside down with 0.96 and the line is read
 * rotated, as nothing. Any stretch of a line shows which way up it is.
 */
export function middleWindow(quad: Quad, maxAspect = CLS_WIDTH / CLS_HEIGHT): Quad {
  const { width, height } = quadSize(quad);
  if (width <= maxAspect * height) return quad;
  const t0 = (1 - (maxAspect * height) / width) / 2,
    t1 = 1 - t0;
  const at = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  return [at(quad[0], quad[1], t0), at(quad[0], quad[1], t1), at(quad[3], quad[2], t1), at(quad[3], quad[2], t0)];
}

/** For each quad, the probability that it reads upside down. */
export async function classifyUpsideDown(image: DecodedImage, lines: readonly Quad[], model: OnnxModel): Promise<number[]> {
  if (lines.length === 0) return [];
  const quads = lines.map((q) => middleWindow(q));
  const plane = CLS_HEIGHT * CLS_WIDTH;
  const tensor = new Float32Array(quads.length * 3 * plane);
  quads.forEach((quad, slot) => {
    const { width, height } = quadSize(quad);
    const w = Math.max(1, Math.min(CLS_WIDTH, Math.ceil((CLS_HEIGHT * width) / Math.max(1, height))));
    const crop = cropLine(image, quad, w, CLS_HEIGHT);
    const base = slot * 3 * plane;
    for (let y = 0; y < CLS_HEIGHT; y++) {
      for (let x = 0; x < w; x++) {
        const s = (y * w + x) * 3,
          d = y * CLS_WIDTH + x;
        tensor[base + d] = crop.rgb[s + 2] / 127.5 - 1;
        tensor[base + plane + d] = crop.rgb[s + 1] / 127.5 - 1;
        tensor[base + 2 * plane + d] = crop.rgb[s] / 127.5 - 1;
      }
    }
  });
  const output = await model.run(tensor, [quads.length, 3, CLS_HEIGHT, CLS_WIDTH]);
  return quads.map((_, i) => output.data[i * 2 + 1]);
}

export interface OrientedLines {
  /** The same lines with corners shifted so corner 0→1 is the reading direction. */
  quads: Quad[];
  /** How many lines went through the classifier (for profiling). */
  classified: number;
  /** Indices of the lines the classifier turned by 180° (`settleFlips` checks them against the recognizer). */
  flipped: number[];
}

/**
 * Puts every line's quad in reading order. Tall lines are turned by 90° and always classified (a
 * page rotated by 90° and one rotated by 270° look alike to the detector). Horizontal lines are
 * classified only when a sample of the longest ones says the page is upside down, or is split: on
 * upright pages (nearly all of them) the classifier cannot change anything, so it is not run on every line.
 */
export async function orientLines(image: DecodedImage, quads: readonly Quad[], model: OnnxModel): Promise<OrientedLines> {
  const turned = quads.map((q) => {
    const { width, height } = quadSize(q);
    return height >= TALL_RATIO * width
      ? { quad: rotateQuad(q, 1), tall: true, aspect: height / Math.max(1, width) }
      : { quad: q, tall: false, aspect: width / Math.max(1, height) };
  });
  const tall = turned.map((t, i) => (t.tall ? i : -1)).filter((i) => i >= 0);
  const flat = turned.map((t, i) => (t.tall ? -1 : i)).filter((i) => i >= 0);
  // The longest lines carry the most evidence.
  const sample = [...flat].sort((a, b) => turned[b].aspect - turned[a].aspect).slice(0, PAGE_SAMPLE);
  const first = await classifyUpsideDown(
    image,
    [...tall, ...sample].map((i) => turned[i].quad),
    model,
  );
  const flip = new Map<number, boolean>();
  [...tall, ...sample].forEach((i, k) => flip.set(i, first[k] > FLIP_CONFIDENCE));
  let classified = first.length;
  // A split sample (3 of 8 or more say upside down) decides nothing either way: every line is asked.
  const sampleFlips = sample.filter((i) => flip.get(i)).length;
  if (sample.length > 0 && sampleFlips * 8 >= SPLIT_SAMPLE * sample.length) {
    const rest = flat.filter((i) => !flip.has(i));
    const more = await classifyUpsideDown(
      image,
      rest.map((i) => turned[i].quad),
      model,
    );
    rest.forEach((i, k) => flip.set(i, more[k] > FLIP_CONFIDENCE));
    classified += rest.length;
  }
  return {
    quads: turned.map((t, i) => (flip.get(i) ? rotateQuad(t.quad, 2) : t.quad)),
    classified,
    flipped: turned.flatMap((_, i) => (flip.get(i) ? [i] : [])),
  };
}
