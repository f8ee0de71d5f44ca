import { cropLine, type LineCrop, scaledWidth } from './crop-line.ts';
import { ctcDecode, HESITANT_SPACE, PHOTO_HESITANT_SPACE } from './ctc-decode.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { middleWindow } from '../geometry.ts';
import type { OnnxModel, RecognitionModel } from '../models/models.ts';
import { findLanguage } from './languages.ts';
import type { Quad } from '../ocr-types.ts';
import type { LineReading, Recognizer } from './recognizer.ts';
import { type ColumnRun, type InkProfile, inkProfile } from './ink-profile.ts';
import type { RecognizedChar } from './recognized-line.ts';
import { scratchFloats } from '../scratch-floats.ts';
import { strokeLean, unleanQuad } from './stroke-lean.ts';

/** PP-OCRv4 recognition input height. */
export const REC_HEIGHT = 48;
/**
 * In documents, long lines (receipts, forms, pages: where nearly all recognition time goes, linear
 * in the crop's width) are drawn `LONG_LINE_SCALE` as large, centred in the 48 rows on their paper
 * (`paperOf`): the glyphs keep their shape, the crop gets narrower. Short crops (words, plates) and
 * every line of a photo keep full size: on ICDAR 2015 scenes, shrinking cost 3 points of spotting F1
 * (blurred sign lettering needs all 48 rows), for a few milliseconds per photo.
 * Small print is no exception: forms' 13–18 px lines at 38 rows read as well as at 48 with the
 * English recognizer, also scanned at 0.8 of their size, for 16 % fewer columns (docs/decisions.md).
 */
const LONG_LINE_WIDTH = 200;
const LONG_LINE_SCALE = 0.8;

/** Rows a line is drawn with inside the 48-row tensor. */
function cropHeightOf(quad: Quad, photo: boolean): number {
  const keep = photo || scaledWidth(quad, REC_HEIGHT) < LONG_LINE_WIDTH;
  return keep ? REC_HEIGHT : Math.round(REC_HEIGHT * LONG_LINE_SCALE);
}

/** Narrowest input: very short crops (a digit, a word) get blank columns up to this. */
const MIN_WIDTH = 96;
/**
 * Widest input: the recognizer's attention is quadratic in the width (a 24 000-column input took
 * gigabytes). A page line at 38 rows is ~4 000 columns; anything longer is squeezed to this.
 */
const MAX_WIDTH = 8192;
/**
 * Widest recognizer run: longer lines are read in pieces (`readInPieces`). onnxruntime's arena keeps the
 * buffers of the widest run a worker has seen for its life (+13 MiB at 1 000 columns, +66 at 4 000, +142
 * at 8 000 on fp32), so one wide page would otherwise raise every later hour's memory. ocr-dev's widest
 * line is 2 555 columns: none of its lines is cut.
 */
export const MAX_RUN = 2560;
/**
 * Blank columns after every line: the recognizer was trained on crops padded on the right (to 320
 * columns), and reads a line's last letters better with a blank after them (ocr-dev forms 78.2 / 82.8
 * → 78.7 / 83.5, documents 96.9 / 96.5 → 97.2 / 96.6 on tune / check). A photo's line gets the
 * whole height (scenes lost 0.3–0.6 with half); print gets half, as well read for 3–6 % less
 * recognition on forms and receipts (docs/decisions.md).
 */
function trailingBlank(photo: boolean): number {
  return photo ? REC_HEIGHT : REC_HEIGHT / 2;
}

/** How a line's recognizer output is read: its trailing blank and the bar for a hesitant space (`ctc-decode.ts`). */
interface LineDecoding {
  blank: number;
  hesitantSpace: number;
}

function decodingOf(options: RecognizeLinesOptions): LineDecoding {
  return { blank: trailingBlank(options.photo ?? false), hesitantSpace: options.hesitantSpace ?? HESITANT_SPACE };
}

export interface RecognizeLinesOptions {
  /** The lines are a photo's: drawn at full size with a full blank after them. Default false: print (long lines smaller, half a blank). */
  photo?: boolean;
  /** A photo's line whose strokes lean is read a second time with the lean undone, and the surer reading kept (`readUpright`). */
  upright?: boolean;
  /** The bar for a hesitant space (`ctc-decode.ts`); default `HESITANT_SPACE`. */
  hesitantSpace?: number;
}

/** A lean (columns per row) from which a photo's line is also read upright, and how clearly its edges must show it. */
const MIN_LEAN = 0.2;
const MIN_LEAN_GAIN = 1.01;

/**
 * A plate or sign seen from the side leans, and the Chinese recognizer drops or misreads leaning characters
 * (a plate read without one of its digits). Such a line is read again from the quad with its lean undone
 * (`stroke-lean.ts`) and the reading the recognizer is surer of is kept. ocr-dev's 11 plates: 9 read right
 * before, 10 after; the same plates sheared by −0.4, −0.25, 0.25 and 0.4 (44 images): 36 before, 38 after;
 * none lost. English lines do not get it: on signs the surer of the two was often the wrong one (scenes −0.1
 * on both splits, docs/decisions.md).
 */
async function readUpright<R extends { confidence: number }>(
  reading: R,
  image: DecodedImage,
  quad: Quad,
  crop: LineCrop,
  read: (crop: LineCrop) => Promise<R>,
): Promise<R> {
  const { lean, gain } = strokeLean(crop);
  if (Math.abs(lean) < MIN_LEAN || gain < MIN_LEAN_GAIN) return reading;
  const upright = unleanQuad(quad, lean);
  const other = await read(cropLine(image, upright, scaledWidth(upright, crop.height, MAX_WIDTH), crop.height));
  return other.confidence > reading.confidence ? other : reading;
}

/** Columns `[from, to)` of the crop, (x / 255 − 0.5) / 0.5 in BGR order, as PaddleOCR's `resize_norm_img`; padding stays 0. */
function fillTensor(tensor: Float32Array, crop: LineCrop, from: number, to: number, tensorWidth: number): void {
  const plane = REC_HEIGHT * tensorWidth;
  const { rgb, width, height: rows } = crop;
  const top = Math.floor((REC_HEIGHT - rows) / 2);
  const paper = rows < REC_HEIGHT ? paperOf(crop).map((v) => v / 127.5 - 1) : undefined;
  for (let y = 0; y < REC_HEIGHT; y++) {
    const sy = Math.min(rows - 1, Math.max(0, y - top));
    if (paper && sy !== y - top) {
      const [d0, d1] = [y * tensorWidth, y * tensorWidth + to - from];
      for (let c = 0; c < 3; c++) tensor.fill(paper[2 - c], c * plane + d0, c * plane + d1);
      continue;
    }
    for (let x = 0; x < to - from; x++) {
      const s = (sy * width + from + x) * 3;
      const d = y * tensorWidth + x;
      tensor[d] = rgb[s + 2] / 127.5 - 1;
      tensor[plane + d] = rgb[s + 1] / 127.5 - 1;
      tensor[2 * plane + d] = rgb[s] / 127.5 - 1;
    }
  }
}

/**
 * The rows above and below a crop drawn smaller than the tensor are filled with its paper: the median
 * of its top and bottom rows, channel by channel. Repeating the edge rows instead drew a comma's tail
 * or a bracket's end, where it touched the edge, as a streak, and the recognizer dropped it: ocr-dev
 * receipts kept 142 of 225 "(" and 100 of 191 ",", now 174 and 120. Bag-of-words F1 (punctuation
 * stripped) moves by noise: receipts 92.1 / 92.8 → 92.1 / 93.1, 100 unseen receipts 90.7 / 91.4 →
 * 91.1 / 91.8; with punctuation kept, receipts +1.5 on both splits (docs/decisions.md).
 */
function paperOf(crop: LineCrop): [number, number, number] {
  const { rgb, width, height } = crop;
  const values = new Uint8Array(2 * width);
  const out: [number, number, number] = [255, 255, 255];
  for (let c = 0; c < 3; c++) {
    for (let x = 0; x < width; x++) {
      values[x] = rgb[x * 3 + c];
      values[width + x] = rgb[((height - 1) * width + x) * 3 + c];
    }
    out[c] = values.sort()[width];
  }
  return out;
}

/** Reads columns `[from, to)` of a crop in one recognizer run; positions are fractions of that span. */
async function readColumns(
  crop: LineCrop,
  from: number,
  to: number,
  model: OnnxModel,
  dictionary: readonly string[],
  decoding: LineDecoding,
) {
  const tw = Math.max(MIN_WIDTH, to - from) + decoding.blank;
  const tensor = scratchFloats('recognizer input', 3 * REC_HEIGHT * tw);
  fillTensor(tensor, crop, from, to, tw);
  const output = await model.run(tensor, [1, 3, REC_HEIGHT, tw]);
  // (probability, class) of the best class per timestep: `top-class-output.ts`.
  const [, timesteps] = output.dims;
  return ctcDecode(output.data, timesteps, dictionary, (to - from) / tw, decoding.hesitantSpace);
}

/**
 * Where a line wider than `MAX_RUN` is cut: at the middle of the widest blank run in the second half
 * of each piece (a gap between words; the last of equally wide ones), else at the piece's end.
 */
export function pieceCuts(width: number, gaps: readonly ColumnRun[], maxRun = MAX_RUN): number[] {
  const cuts: number[] = [];
  for (let from = 0; width - from > maxRun; ) {
    const inReach = gaps.filter((g) => (g.start + g.end) / 2 > from + maxRun / 2 && (g.start + g.end) / 2 <= from + maxRun);
    const widest = inReach.reduce<ColumnRun | undefined>(
      (best, g) => (!best || g.end - g.start >= best.end - best.start ? g : best),
      undefined,
    );
    from = widest ? Math.round((widest.start + widest.end) / 2) : from + maxRun;
    cuts.push(from);
  }
  return cuts;
}

/**
 * A line wider than `MAX_RUN` read piece by piece (cut in the gaps between words, `pieceCuts`) and put
 * back together: positions as fractions of the whole line, a space where a cut fell between words.
 */
async function readInPieces(
  crop: LineCrop,
  ink: InkProfile | undefined,
  model: OnnxModel,
  dictionary: readonly string[],
  decoding: LineDecoding,
) {
  const { width } = crop;
  const cuts = pieceCuts(width, ink?.gaps ?? []);
  const bounds = [0, ...cuts, width];
  const chars: RecognizedChar[] = [];
  const centres: number[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const [from, to] = [bounds[k], bounds[k + 1]];
    const piece = await readColumns(crop, from, to, model, dictionary, decoding);
    const at = (f: number) => (from + f * (to - from)) / width;
    const betweenWords = ink?.gaps.some((g) => g.start <= from && from < g.end) ?? false;
    if (chars.length > 0 && piece.chars.length > 0 && betweenWords) {
      const [before, after] = [chars[chars.length - 1], piece.chars[0]];
      chars.push({ text: ' ', x0: before.x1, x1: at(after.x0), confidence: Math.min(before.confidence, after.confidence) });
      centres.push(from / width);
    }
    chars.push(...piece.chars.map((c) => ({ ...c, x0: at(c.x0), x1: at(c.x1) })));
    centres.push(...piece.centres.map(at));
  }
  const confidence = chars.length > 0 ? chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length : 0;
  return { text: chars.map((c) => c.text).join(''), confidence, chars, centres };
}

/**
 * Reads each quad (corner 0→1 = reading direction) with the PP-OCRv4 recognizer, one line per run (a
 * line wider than `MAX_RUN` in pieces).
 * Batches of lines padded to their widest were no faster on one CPU thread, made a line's reading
 * depend on its neighbours (the recognizer's attention sees the padding) and left the memory arena
 * holding the largest batch: read alone, with its blank, ocr-dev took the same time and ~150 MB less.
 *
 * @example const readings = await recognizeLines(image, quads, models.latin.model, models.latin.dictionary);
 */
export async function recognizeLines(
  image: DecodedImage,
  lines: readonly Quad[],
  model: OnnxModel,
  dictionary: readonly string[],
  options: RecognizeLinesOptions = {},
): Promise<LineReading[]> {
  const photo = options.photo ?? false;
  const decoding = decodingOf(options);
  const readings: LineReading[] = [];
  for (const quad of lines) {
    const height = cropHeightOf(quad, photo);
    const width = scaledWidth(quad, height, MAX_WIDTH);
    const crop = cropLine(image, quad, width, height);
    // A line wider than one run is cut where its ink shows a gap between words.
    const ink = width > MAX_RUN ? inkProfile(crop) : undefined;
    const readWhole = (c: LineCrop) => readColumns(c, 0, c.width, model, dictionary, decoding);
    let reading = ink ? await readInPieces(crop, ink, model, dictionary, decoding) : await readWhole(crop);
    if (photo && options.upright && !ink) reading = await readUpright(reading, image, quad, crop, readWhole);
    // The raw reading, with what the text-fix stage needs to place word gaps from the crop's ink.
    readings.push(reading.chars.length > 0 ? { ...reading, ink: ink ?? inkProfile(crop) } : reading);
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
 * Without a hint, the Latin recognizer's least confident lines (up to this many) are read by the
 * Chinese one too, to tell whether the image holds Chinese: the Latin one skips or guesses a Chinese
 * character, often confidently (a plate's province), so its own confidence cannot tell.
 */
const HAN_SAMPLE = 3;
/**
 * Of each sampled line the Chinese recognizer reads only the middle, at most this many heights
 * long (about as many Chinese characters): enough to tell the script, and neither the sample's
 * time nor its recognizer's arena (which keeps the buffers of the widest run it has read) grows
 * with a page's long lines.
 */
const HAN_SAMPLE_HEIGHTS = 8;
/** Mean confidence of the Chinese characters in a sampled line that makes its image Chinese (a blurred sign's Latin letters read as Chinese stay below). */
const HAN_SURE = 0.8;

/**
 * A photo's line the Latin recognizer reads with a mean confidence below this is read by the Chinese
 * one too, and the surer of the two readings wins (`secondOpinion`).
 */
const SECOND_OPINION_BELOW = 0.9;

/** Whether the hints name a Chinese language, which only the Chinese recognizer reads. */
function asksForHan(hints: readonly string[]): boolean {
  return hints.some((hint) => {
    const language = findLanguage(hint);
    return language?.recognizer === 'ppocr' && (language.script === 'Hans' || language.script === 'Hant');
  });
}

const HAN = /\p{Script=Han}/u;

/** Whether the Chinese recognizer read Chinese characters in the line, and was sure of them. */
function readsChinese(reading: LineReading): boolean {
  const han = reading.chars.filter((c) => HAN.test(c.text));
  return han.length > 0 && han.reduce((sum, c) => sum + c.confidence, 0) / han.length >= HAN_SURE;
}

/** One recognizer reading the image's lines at these quads. */
type ReadQuads = (quads: readonly Quad[]) => Promise<LineReading[]>;

/** Whether the Latin reading's least confident lines (`HAN_SAMPLE`), read by the Chinese recognizer, show Chinese. */
async function sampleHoldsChinese(readings: readonly LineReading[], lines: readonly Quad[], readHan: ReadQuads): Promise<boolean> {
  const sample = readings
    .map((r, i) => ({ i, confidence: r.confidence }))
    .sort((x, y) => x.confidence - y.confidence)
    .slice(0, HAN_SAMPLE)
    .map((s) => s.i);
  const sampled = await readHan(sample.map((i) => middleWindow(lines[i], HAN_SAMPLE_HEIGHTS)));
  return sampled.some(readsChinese);
}

/**
 * A photo's doubtful lines read by a second recognizer: the Chinese model also reads Latin letters,
 * trained on other data, so where blurred sign lettering defeats one, the other is often sure and
 * right ("PHARNACY" / "PHARMACY", "H0TFL" / "HOTEL"). Per line, the reading with the higher mean
 * confidence wins, unless it holds Chinese characters (the image was found not to be Chinese). On
 * ocr-dev's scenes (tune / check): 67.0 / 59.4 → 67.5 / 60.6, every other kind unchanged, for a
 * few lines per photo; for print it did not help (forms 82.3 / 85.7 → 82.4 / 85.5, +7 % time).
 */
async function secondOpinion(readings: LineReading[], lines: readonly Quad[], readHan: ReadQuads): Promise<LineReading[]> {
  const doubtful = readings.flatMap((r, i) => (r.chars.length > 0 && r.confidence < SECOND_OPINION_BELOW ? [i] : []));
  if (doubtful.length === 0) return readings;
  const others = await readHan(doubtful.map((i) => lines[i]));
  const out = [...readings];
  doubtful.forEach((lineIndex, k) => {
    const other = others[k];
    if (other.confidence > out[lineIndex].confidence && !HAN.test(other.text)) out[lineIndex] = other;
  });
  return out;
}

/**
 * PP-OCRv4's two recognizers behind the `Recognizer` port. The English one reads Latin text better
 * than the Chinese one (forms, receipts, scenes and Vietnamese gained 0.4–3.4 points on both splits
 * of ocr-dev) and faster (97 classes, not 6 625), so it reads every image except those hinted
 * Chinese, and those without a hint where a sample of lines read by the Chinese one shows Chinese
 * (`HAN_SAMPLE`); a photo's doubtful lines are read by both (`secondOpinion`). With `latin.int8`
 * (the same model, convs in int8: `int8-model.ts`), documents are read by it and the lines holding
 * a doubtful character again in fp32; photos stay in fp32, where int8 cost 3 points of spotting F1
 * and recognition is a small share of the time.
 */
export function createPaddleRecognizer(models: { latin: RecognitionModel; han: RecognitionModel }): Recognizer {
  const { latin, han } = models;
  async function readLatin(image: DecodedImage, lines: readonly Quad[], how: RecognizeLinesOptions): Promise<LineReading[]> {
    if (!latin.int8 || how.photo) return recognizeLines(image, lines, latin.model, latin.dictionary, how);
    const readings = await recognizeLines(image, lines, latin.int8, latin.dictionary, how);
    // A space is no character: one read where the recognizer hesitated has its (low) probability (`ctc-decode.ts`).
    const doubtful = readings.flatMap((r, i) =>
      r.chars.length === 0 || r.chars.some((c) => c.text !== ' ' && c.confidence < INT8_DOUBT) ? [i] : [],
    );
    const again = await recognizeLines(
      image,
      doubtful.map((i) => lines[i]),
      latin.model,
      latin.dictionary,
      how,
    );
    doubtful.forEach((lineIndex, k) => {
      readings[lineIndex] = again[k];
    });
    return readings;
  }
  return {
    name: 'pp-ocrv4',
    async recognize(image, lines, options) {
      const photo = options?.photo === true;
      // A photo's Latin words run together more than print's: their spaces come at a lower bar; Chinese has none.
      const how: RecognizeLinesOptions = photo ? { photo, hesitantSpace: PHOTO_HESITANT_SPACE } : { photo };
      const hints = options?.languageHints ?? [];
      const readHan: ReadQuads = (quads) => recognizeLines(image, quads, han.model, han.dictionary, how);
      // A Chinese image's own lines (not the sample, nor a second opinion on Latin ones) are also read upright where they lean.
      const readHanLines = () => recognizeLines(image, lines, han.model, han.dictionary, { photo, upright: true });
      if (asksForHan(hints)) return readHanLines();
      const readings = await readLatin(image, lines, how);
      // No hint (Google reads Chinese without one): an image whose sample holds Chinese is read as the hint `zh` reads it.
      if (hints.length === 0 && (await sampleHoldsChinese(readings, lines, readHan))) return readHanLines();
      return how.photo ? secondOpinion(readings, lines, readHan) : readings;
    },
  };
}
