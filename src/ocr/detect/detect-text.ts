import sharp from 'sharp';
import { dbPostprocess, DEFAULT_DB_PARAMS, type DbParams } from './db-postprocess.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { PAGE_MIN_LINES } from '../decode/paper-share.ts';
import { distance } from '../geometry.ts';
import type { OnnxModel } from '../models/models.ts';
import type { Quad } from '../ocr-types.ts';
import { SCRATCH_KEEP_FLOATS, scratchFloats } from '../scratch-floats.ts';

export interface TextBox {
  /** Original-image pixels; corner 0→1 runs along the side closer to horizontal. */
  box: Quad;
  /** Mean text probability inside the box, 0..1. */
  score: number;
}

export interface DetectionPlan {
  /** Size the image is resized to (before padding). */
  width: number;
  height: number;
  /** Margin added on every side, then right/bottom up to a multiple of 32. */
  pad: number;
  tensorWidth: number;
  tensorHeight: number;
}

export interface DetectionSizing {
  /** The short side is brought up to this, within `maxSide` and `maxUpscale`. */
  minSide: number;
  /** The long side never exceeds this. */
  maxSide: number;
  maxUpscale: number;
  /** Smaller upscales are skipped: they resample without making text meaningfully bigger. */
  minUpscale: number;
  /**
   * Images whose tensor at the size above would exceed this many pixels are first detected with
   * the long side at `probeSide` (~4× cheaper on a receipt or a page), and that result is kept when
   * its boxes are at least `minBoxHeight` map pixels tall (median; unclipped boxes, ~2.5× the text's
   * x-height band). Otherwise the detector runs again at the scale that makes them `targetBoxHeight`.
   */
  probeAbovePixels: number;
  probeSide: number;
  minBoxHeight: number;
  targetBoxHeight: number;
}

export const DEFAULT_SIZING: DetectionSizing = {
  minSide: 736,
  maxSide: 2016,
  maxUpscale: 2,
  minUpscale: 1.15,
  probeAbovePixels: 1_000_000,
  probeSide: 960,
  minBoxHeight: 20,
  targetBoxHeight: 24,
};

const STRIDE = 32;
/** `boxThresh` when the image yields no box at the normal one. */
const FALLBACK_BOX_THRESH = 0.3;
/** What `planDetection` treats as an image of a single text line. */
const LINE_IMAGE = { maxShort: 200, minLong: 500, minShort: 48 };

/**
 * The detector's input size for an image: small scene text needs the short side near 736
 * (PaddleOCR evaluates ICDAR 2015 at 736×1280), while big pages are shrunk only until the long side
 * fits `maxSide`, so 300-dpi body text stays ~20 px tall. An upscale below `minUpscale` is not
 * worth its resampling: 1280×720 photos are detected at their own size (on the ICDAR 2015 photos of
 * ocr-dev, the 2 % upscale to 736 cost 1.4 points of spotting F1 averaged over photos scaled by
 * 0.9–1.1). Strips (a single text line) get a margin because the detector misses text that touches
 * the border.
 */
export function planDetection(width: number, height: number, sizing: DetectionSizing = DEFAULT_SIZING): DetectionPlan {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  let scale = Math.min(1, sizing.maxSide / long);
  if (short * scale < sizing.minSide) scale = Math.min(sizing.minSide / short, sizing.maxSide / long, sizing.maxUpscale);
  // A text line on its own (a scanned line, a caption strip) has text about as tall as the image:
  // upscaling it only makes detection slower (3× on ocr-dev's line images, same reading). Small
  // images in both directions (word crops, plates) keep the upscale: they read worse without it.
  if (short < LINE_IMAGE.maxShort && long >= LINE_IMAGE.minLong) scale = Math.min(scale, Math.max(1, LINE_IMAGE.minShort / short));
  if (scale > 1 && scale < sizing.minUpscale) scale = 1;
  return planAtScale(width, height, scale);
}

/** The detector's input for the image resized by `scale`. */
export function planAtScale(width: number, height: number, scale: number): DetectionPlan {
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const scaledShort = Math.min(w, h);
  const pad = scaledShort < 200 ? Math.round(scaledShort * 0.5) + 16 : 0;
  const roundUp = (n: number) => Math.max(STRIDE, Math.ceil(n / STRIDE) * STRIDE);
  return { width: w, height: h, pad, tensorWidth: roundUp(w + 2 * pad), tensorHeight: roundUp(h + 2 * pad) };
}

/** ImageNet mean/std, in the BGR channel order PaddleOCR trained with (images read by OpenCV). */
const MEAN = [0.406, 0.456, 0.485];
const STD = [0.225, 0.224, 0.229];

/** The image resized and padded to the plan's tensor size: `tensorWidth × tensorHeight` RGB bytes. */
async function detectorPixels(image: DecodedImage, plan: DetectionPlan): Promise<Buffer> {
  const { pad, tensorWidth: tw, tensorHeight: th } = plan;
  return sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(plan.width, plan.height, { fit: 'fill' })
    .extend({ top: pad, left: pad, bottom: th - plan.height - pad, right: tw - plan.width - pad, extendWith: 'copy' })
    .raw()
    .toBuffer();
}

/**
 * The detector's input for rows `from`–`to` of the padded pixels: planes in BGR order, normalized.
 * Built per strip, so a page never has a whole-page float input (up to 49 MB) beside its strips.
 */
function detectorTensor(pixels: Uint8Array, width: number, from: number, to: number): Float32Array {
  const plane = width * (to - from);
  const tensor = scratchFloats('detector input', 3 * plane);
  const offset = from * width;
  for (let c = 0; c < 3; c++) {
    const src = 2 - c; // BGR
    const mean = MEAN[c] * 255,
      inv = 1 / (STD[c] * 255);
    const out = c * plane;
    for (let i = 0; i < plane; i++) tensor[out + i] = (pixels[(offset + i) * 3 + src] - mean) * inv;
  }
  return tensor;
}

export interface DetectOptions {
  sizing?: DetectionSizing;
  db?: DbParams;
  /**
   * Detect at twice the size the image is first detected at (within `maxSide`): the second look of
   * an image on which nothing legible was read (`ocr-pipeline.ts`). Thin or outlined letters
   * (a neon sign) and light lettering on a busy background can vanish at the planned size. Nothing
   * when the image cannot be enlarged.
   */
  enlarged?: boolean;
  /** Most input values per detector run (`STRIP_VALUES`); larger inputs are detected in strips. */
  stripValues?: number;
  /** The image is a photo (`paperShare`): detected with its short side at `minSide` first (`detectPhoto`). */
  photo?: boolean;
}

/**
 * Text boxes of an image with the PP-OCRv4 detector, in original pixels. Big inputs are probed at a
 * cheap size first and detected again only when their text is too small there (`DetectionSizing`).
 *
 * @example const boxes = await detectText(image, models.detector);
 */
export async function detectText(image: DecodedImage, detector: OnnxModel, options: DetectOptions = {}): Promise<TextBox[]> {
  const sizing = options.sizing ?? DEFAULT_SIZING;
  const full = planDetection(image.width, image.height, sizing);
  const fullScale = full.width / image.width;
  if (!options.enlarged) return detectSized(image, detector, options, sizing, full);
  // Twice the size the image was first detected at: a photo's scene size, or the planned size.
  const first = (options.photo ? photoDetectionScale(image.width, image.height, sizing) : undefined) ?? fullScale;
  const larger = Math.min(2 * first, sizing.maxSide / Math.max(image.width, image.height));
  return larger >= first * sizing.minUpscale ? detectAt(image, planAtScale(image.width, image.height, larger), detector, options) : [];
}

async function detectSized(
  image: DecodedImage,
  detector: OnnxModel,
  options: DetectOptions,
  sizing: DetectionSizing,
  full: DetectionPlan,
): Promise<TextBox[]> {
  const fullScale = full.width / image.width;
  const photoScale = options.photo ? photoDetectionScale(image.width, image.height, sizing) : undefined;
  if (photoScale !== undefined) return detectPhoto(image, detector, options, sizing, photoScale, fullScale);
  const probeScale = sizing.probeSide / Math.max(image.width, image.height);
  if (full.tensorWidth * full.tensorHeight <= sizing.probeAbovePixels || full.pad > 0 || probeScale >= fullScale * 0.8) {
    return detectAt(image, full, detector, options);
  }
  const probe = planAtScale(image.width, image.height, probeScale);
  const found = await detectAt(image, probe, detector, options);
  const height = medianBoxHeight(found) * probeScale;
  if (found.length > 0 && height >= sizing.minBoxHeight) return found;
  const scale = found.length === 0 ? fullScale : Math.min(fullScale, (probeScale * sizing.targetBoxHeight) / height);
  return detectAt(image, planAtScale(image.width, image.height, scale), detector, options);
}

/**
 * The scale a photo is first detected at: its short side brought down to `minSide`, when that is
 * meaningfully smaller than the planned size (`planDetection` already brings smaller photos up to it).
 *
 * @example photoDetectionScale(1920, 1080) // 736 / 1080
 */
export function photoDetectionScale(width: number, height: number, sizing: DetectionSizing = DEFAULT_SIZING): number | undefined {
  const full = planDetection(width, height, sizing);
  const scale = sizing.minSide / Math.min(width, height);
  return scale * sizing.minUpscale <= full.width / width ? scale : undefined;
}

/**
 * A photo larger than the detector's scene size, detected with its short side at `minSide`: the size
 * PaddleOCR evaluates scene text at, where street lettering reads best whatever the camera's
 * resolution. A page photographed (many lines) whose lines are small there is detected again at the
 * size that makes them `targetBoxHeight`, as big images are (`detectSized`).
 */
async function detectPhoto(
  image: DecodedImage,
  detector: OnnxModel,
  options: DetectOptions,
  sizing: DetectionSizing,
  photoScale: number,
  fullScale: number,
): Promise<TextBox[]> {
  const found = await detectAt(image, planAtScale(image.width, image.height, photoScale), detector, options);
  if (found.length < PAGE_MIN_LINES) return found;
  const height = medianBoxHeight(found) * photoScale;
  if (height >= sizing.minBoxHeight) return found;
  const scale = Math.min(fullScale, (photoScale * sizing.targetBoxHeight) / height);
  return detectAt(image, planAtScale(image.width, image.height, scale), detector, options);
}

/** Median height of the boxes, in original pixels. */
function medianBoxHeight(boxes: readonly TextBox[]): number {
  const heights = boxes.map(({ box }) => Math.max(distance(box[0], box[3]), distance(box[1], box[2]))).sort((a, b) => a - b);
  return heights.length === 0 ? 0 : heights[Math.floor(heights.length / 2)];
}

/**
 * The largest detector input run at once (a 1280×736 photo: 2.8 M values). A page detected at
 * 2016 px is up to 12 M values, and its feature maps took ~0.5 GB for the length of the call: it is
 * run in horizontal strips instead, each within this size, so every detection fits the memory the
 * photos' arena already holds, and runs faster in it (docs/decisions.md). It is the scratch
 * buffer's size, so every strip's input reuses that buffer too.
 */
export const STRIP_VALUES = SCRATCH_KEEP_FLOATS;
/**
 * Rows of context above and below each strip, dropped from its output: the detector's map at a row
 * depends on the image around it. A strip's map is close to the page's, not equal (the detector's
 * squeeze-and-excitation blocks weigh channels by their mean over the whole input): on ocr-dev's
 * pages 0–3 boxes of 120–350 differ, and every kind's score held or rose (docs/decisions.md).
 */
const STRIP_CONTEXT = 64;

/** The detector's probability map for padded pixels of `width × height`, in strips when they are large. */
async function probabilityMap(
  pixels: Uint8Array,
  width: number,
  height: number,
  detector: OnnxModel,
  stripValues: number,
): Promise<{ map: Float32Array; width: number; height: number }> {
  const stripRows = Math.floor(stripValues / (3 * width) / STRIDE) * STRIDE;
  const core = stripRows - 2 * STRIP_CONTEXT;
  if (3 * width * height <= stripValues || core < STRIDE) {
    const output = await detector.run(detectorTensor(pixels, width, 0, height), [1, 3, height, width]);
    return { map: output.data, width: output.dims[3], height: output.dims[2] };
  }
  const map = new Float32Array(width * height);
  for (let top = 0; top < height; top += core) {
    const from = Math.max(0, top - STRIP_CONTEXT);
    const to = Math.min(height, top + core + STRIP_CONTEXT);
    const output = await detector.run(detectorTensor(pixels, width, from, to), [1, 3, to - from, width]);
    const keep = Math.min(core, height - top);
    map.set(output.data.subarray((top - from) * width, (top - from + keep) * width), top * width);
  }
  return { map, width, height };
}

async function detectAt(image: DecodedImage, plan: DetectionPlan, detector: OnnxModel, options: DetectOptions): Promise<TextBox[]> {
  const pixels = await detectorPixels(image, plan);
  const strip = options.stripValues ?? STRIP_VALUES;
  const { map, width: mapWidth, height: mapHeight } = await probabilityMap(pixels, plan.tensorWidth, plan.tensorHeight, detector, strip);
  const db = options.db ?? DEFAULT_DB_PARAMS;
  let found = dbPostprocess(map, mapWidth, mapHeight, db);
  // Nothing is the worst answer: dense print (a line of Arabic with its marks) can leave holes in the
  // map that pull a real line's mean under `boxThresh`. Then the weaker candidates are read, and the
  // recognizer's confidence decides (on ocr-dev, two clean Arabic lines came back empty).
  if (found.length === 0)
    found = dbPostprocess(map, mapWidth, mapHeight, { ...db, boxThresh: Math.min(db.boxThresh, FALLBACK_BOX_THRESH) });
  const sx = image.width / plan.width;
  const sy = image.height / plan.height;
  const clampX = (x: number) => Math.min(image.width, Math.max(0, x));
  const clampY = (y: number) => Math.min(image.height, Math.max(0, y));
  return found.map(({ box, score }) => ({
    box: box.map((p) => ({ x: clampX((p.x - plan.pad) * sx), y: clampY((p.y - plan.pad) * sy) })) as Quad,
    score,
  }));
}
