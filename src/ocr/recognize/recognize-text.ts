import { cropLine, scaledWidth } from './crop-line.ts';
import { ctcDecode } from './ctc-decode.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import type { OnnxModel } from '../models/models.ts';
import type { Quad } from '../ocr-types.ts';
import type { LineReading, Recognizer } from './recognizer.ts';
import { inkProfile } from './ink-profile.ts';
import { scratchFloats } from '../scratch-floats.ts';

/** PP-OCRv4 recognition input height. */
export const REC_HEIGHT = 48;
/**
 * In documents, long lines (receipts, forms, pages: where nearly all recognition time goes, linear
 * in the crop's width) are drawn `LONG_LINE_SCALE` as large, centred in the 48 rows with their edge
 * rows repeated: the glyphs keep their shape, the crop gets narrower. Short crops (words, plates)
 * and every line of a photo keep full size: on ICDAR 2015 scenes, shrinking cost 3 points of
 * spotting F1 (blurred sign lettering needs all 48 rows), for a few milliseconds per photo.
 */
const LONG_LINE_WIDTH = 200;
const LONG_LINE_SCALE = 0.8;

/** Rows a line is drawn with inside the 48-row tensor. */
function cropHeightOf(quad: Quad, shrinkLongLines: boolean): number {
  return !shrinkLongLines || scaledWidth(quad, REC_HEIGHT) < LONG_LINE_WIDTH ? REC_HEIGHT : Math.round(REC_HEIGHT * LONG_LINE_SCALE);
}

export interface BatchingOptions {
  /** Most lines per inference call. */
  maxBatch: number;
  /** Narrowest tensor: very short crops get right padding up to this. */
  minWidth: number;
  /** A batch closes when padding its lines to the widest would add more than this share of columns. */
  maxPadding: number;
  /**
   * Most lines × width² per batch: the recognizer's attention is quadratic in the crop's width, so a
   * batch of eight 4 000-column page lines asked onnxruntime for > 0.5 GB, which its memory arena then
   * kept for ever. Wide lines go in smaller batches (alone beyond ~3 600 columns).
   */
  maxLinesTimesWidthSquared?: number;
}

export const DEFAULT_BATCHING: BatchingOptions = { maxBatch: 8, minWidth: 96, maxPadding: 0.05, maxLinesTimesWidthSquared: 8 * 1280 ** 2 };

export interface RecognizeLinesOptions {
  batching?: BatchingOptions;
  /** Draw long lines smaller (documents: faster, same accuracy); off for photos. Default true. */
  shrinkLongLines?: boolean;
}

interface Batch {
  indices: number[];
  widths: number[];
  tensorWidth: number;
}

/**
 * Groups lines of similar width: sorted by width, a batch is padded only to its widest member, so
 * no time is spent on padding (in PaddleOCR's order a short word can share a batch with a whole
 * page line).
 */
export function planBatches(widths: readonly number[], options: BatchingOptions = DEFAULT_BATCHING): Batch[] {
  const order = widths.map((_, i) => i).sort((a, b) => widths[a] - widths[b]);
  const batches: Batch[] = [];
  let current: number[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const ws = current.map((i) => widths[i]);
    batches.push({ indices: current, widths: ws, tensorWidth: Math.max(options.minWidth, ...ws) });
    current = [];
  };
  for (const i of order) {
    // Close the batch when it is full or when padding everyone to this width would waste too much.
    if (current.length >= options.maxBatch) flush();
    if (current.length > 0) {
      const total = current.reduce((s, j) => s + widths[j], 0) + widths[i];
      if (Math.max(options.minWidth, widths[i]) * (current.length + 1) > total * (1 + options.maxPadding)) flush();
      else if ((current.length + 1) * widths[i] ** 2 > (options.maxLinesTimesWidthSquared ?? Infinity)) flush();
    }
    current.push(i);
  }
  flush();
  return batches;
}

/** (x / 255 − 0.5) / 0.5 in BGR order, as PaddleOCR's `resize_norm_img`; padding stays 0. */
function fillTensor(tensor: Float32Array, slot: number, rgb: Uint8Array, width: number, tensorWidth: number): void {
  const plane = REC_HEIGHT * tensorWidth;
  const base = slot * 3 * plane;
  const rows = rgb.length / (3 * width);
  const top = Math.floor((REC_HEIGHT - rows) / 2);
  for (let y = 0; y < REC_HEIGHT; y++) {
    const sy = Math.min(rows - 1, Math.max(0, y - top));
    for (let x = 0; x < width; x++) {
      const s = (sy * width + x) * 3;
      const d = y * tensorWidth + x;
      tensor[base + d] = rgb[s + 2] / 127.5 - 1;
      tensor[base + plane + d] = rgb[s + 1] / 127.5 - 1;
      tensor[base + 2 * plane + d] = rgb[s] / 127.5 - 1;
    }
  }
}

/**
 * Reads each quad (corner 0→1 = reading direction) with the PP-OCRv4 recognizer.
 *
 * @example const readings = await recognizeLines(image, quads, models.recognizer, models.dictionary);
 */
export async function recognizeLines(
  image: DecodedImage,
  lines: readonly Quad[],
  model: OnnxModel,
  dictionary: readonly string[],
  options: RecognizeLinesOptions = {},
): Promise<LineReading[]> {
  const shrink = options.shrinkLongLines ?? true;
  const heights = lines.map((q) => cropHeightOf(q, shrink));
  const widths = lines.map((q, i) => scaledWidth(q, heights[i]));
  const readings: LineReading[] = new Array(lines.length);
  for (const batch of planBatches(widths, options.batching ?? DEFAULT_BATCHING)) {
    const n = batch.indices.length;
    const tw = batch.tensorWidth;
    const tensor = scratchFloats('recognizer input', n * 3 * REC_HEIGHT * tw);
    const crops = batch.indices.map((lineIndex, slot) => {
      const crop = cropLine(image, lines[lineIndex], batch.widths[slot], heights[lineIndex]);
      fillTensor(tensor, slot, crop.rgb, crop.width, tw);
      return crop;
    });
    const output = await model.run(tensor, [n, 3, REC_HEIGHT, tw]);
    // (probability, class) of the best class per timestep: `top-class-output.ts`.
    const [, timesteps, pair] = output.dims;
    batch.indices.forEach((lineIndex, slot) => {
      const best = output.data.subarray(slot * timesteps * pair, (slot + 1) * timesteps * pair);
      // The raw reading, with what the text-fix stage needs to place word gaps from the crop's ink.
      const reading = ctcDecode(best, timesteps, dictionary, batch.widths[slot] / tw, false);
      const ink = reading.chars.length > 0 ? inkProfile(crops[slot]) : undefined;
      readings[lineIndex] = ink ? { ...reading, ink } : reading;
    });
  }
  return readings;
}

/**
 * Below this, a character read by the int8 recognizer sends its line to the fp32 one. On ocr-dev's
 * receipts and forms 7–14 % of lines are read again, which recovers most of what int8 alone lost
 * (receipts tune 89.3 → 90.0, fp32 90.3: docs/decisions.md).
 */
const INT8_DOUBT = 0.5;

/**
 * The PP-OCRv4 recognizer behind the `Recognizer` port. With `int8` (the same model, convs in int8:
 * `int8-model.ts`), documents are read by it and the lines holding a doubtful character again in
 * fp32; photos stay in fp32, where int8 cost 3 points of spotting F1 and recognition is a small share
 * of the time.
 */
export function createPaddleRecognizer(
  model: OnnxModel,
  dictionary: readonly string[],
  options: { batching?: BatchingOptions; int8?: OnnxModel } = {},
): Recognizer {
  const { batching, int8 } = options;
  return {
    name: 'pp-ocrv4',
    async recognize(image, lines, options) {
      const how = { batching, shrinkLongLines: options?.mode !== 'text' };
      if (!int8 || options?.photo) return recognizeLines(image, lines, model, dictionary, how);
      const readings = await recognizeLines(image, lines, int8, dictionary, how);
      const doubtful = readings.flatMap((r, i) => (r.chars.length === 0 || r.chars.some((c) => c.confidence < INT8_DOUBT) ? [i] : []));
      if (doubtful.length === 0) return readings;
      const again = await recognizeLines(
        image,
        doubtful.map((i) => lines[i]),
        model,
        dictionary,
        how,
      );
      doubtful.forEach((lineIndex, k) => {
        readings[lineIndex] = again[k];
      });
      return readings;
    },
  };
}
