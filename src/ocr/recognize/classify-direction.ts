import { cropLine } from './crop-line.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { middleWindow, quadSize, rotateQuad } from '../geometry.ts';
import type { OnnxModel } from '../models/models.ts';
import type { Quad } from '../ocr-types.ts';
import { pageTurn, type QuarterTurns } from './page-turn.ts';

/** PP-OCR direction classifier input (ppocr `ClsResizeImg`: 3×48×192). */
const CLS_HEIGHT = 48;
const CLS_WIDTH = 192;
/** PaddleOCR's `cls_thresh`: flip only when the classifier is this sure. */
const FLIP_CONFIDENCE = 0.9;
/** Lines sampled to decide whether a page of horizontal lines is upside down. */
const PAGE_SAMPLE = 8;
/** Eighths of the sample leaning upside down (> 0.5) from which every line is classified for the page's vote (an upside-down receipt's sample: 1 of 8 above `FLIP_CONFIDENCE`, 7 above 0.5). */
const SPLIT_SAMPLE = 3;
/** Crops at least this much taller than wide are read turned by 90° (PaddleOCR uses 1.5). */
const TALL_RATIO = 1.5;

/**
 * Lines per classifier run. onnxruntime's arena keeps the buffers of the largest batch a worker has
 * run, for good: a page of 140 lines classified at once added ~80 MB to `bench:ocr`'s peak RSS.
 */
const BATCH = 16;

/** For each quad, the probability that it reads upside down. */
export async function classifyUpsideDown(image: DecodedImage, lines: readonly Quad[], model: OnnxModel): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < lines.length; i += BATCH) out.push(...(await classifyBatch(image, lines.slice(i, i + BATCH), model)));
  return out;
}

async function classifyBatch(image: DecodedImage, lines: readonly Quad[], model: OnnxModel): Promise<number[]> {
  if (lines.length === 0) return [];
  // PaddleOCR squeezes the whole line into 192 columns; a line 40 heights long squeezed 10× is no
  // longer text, and the classifier then calls a clean upright line upside down with 0.96.
  const quads = lines.map((q) => middleWindow(q, CLS_WIDTH / CLS_HEIGHT));
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
  /** How far the page as a whole is turned (`pageTurn`): the pipeline reads a turned page again, upright. */
  turn: QuarterTurns;
}

/**
 * Puts every line's quad in reading order. Tall lines are turned by 90° and always classified (a
 * page rotated by 90° and one rotated by 270° look alike to the detector). Horizontal lines are
 * classified only when a sample of the longest ones says the page is upside down (or leans that way: then
 * for the page's vote, `turn`): on upright pages (nearly all of them) the classifier cannot change
 * anything, so it is not run on every line.
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
  // Each classified line's probability of reading upside down in its turned quad.
  const upsideDown = new Map<number, number>();
  [...tall, ...sample].forEach((i, k) => upsideDown.set(i, first[k]));
  let classified = first.length;
  // Most of the sample sure it is upside down: every line is turned by its own answer. A sample of
  // which 3 of 8 or more only lean that way: every line is asked, for the page's vote (`pageTurn`)
  // alone, as one line's answer on faded print is noise and a turned page is read again upright.
  const p = (i: number) => upsideDown.get(i) ?? 0;
  const sure = sample.filter((i) => p(i) > FLIP_CONFIDENCE).length * 2 > sample.length;
  const leaning = sample.length > 0 && sample.filter((i) => p(i) > 0.5).length * 8 >= SPLIT_SAMPLE * sample.length;
  const rest = sure || leaning ? flat.filter((i) => !upsideDown.has(i)) : [];
  const more = await classifyUpsideDown(
    image,
    rest.map((i) => turned[i].quad),
    model,
  );
  rest.forEach((i, k) => upsideDown.set(i, more[k]));
  classified += rest.length;
  const asked = new Set(sure ? [...tall, ...flat] : [...tall, ...sample]);
  const flip = (i: number) => asked.has(i) && p(i) > FLIP_CONFIDENCE;
  return {
    quads: turned.map((t, i) => (flip(i) ? rotateQuad(t.quad, 2) : t.quad)),
    classified,
    turn: pageTurn(turned.map((t, i) => ({ quad: t.quad, upsideDown: upsideDown.get(i) }))),
    flipped: turned.flatMap((_, i) => (flip(i) ? [i] : [])),
  };
}
