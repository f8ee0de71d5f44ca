import { orientLines, type OrientedLines } from './recognize/classify-direction.ts';
import { decodeImage, type DecodedImage } from './decode/decode-image.ts';
import { descreen, type Descreened } from './decode/descreen.ts';
import { detectText, type TextBox } from './detect/detect-text.ts';
import { isCrop, linesOfCrop } from './detect/lines-of-crop.ts';
import { imageQuad } from './geometry.ts';
import { dropDoubtfulWordsOfPhoto } from './words/drop-doubtful-words.ts';
import { settleFlips } from './recognize/settle-flips.ts';
import { turnImage, unturnQuads } from './recognize/page-turn.ts';
import type { EnglishLexicon } from './words/english-lexicon.ts';
import { latinLanguageOf } from './recognize/languages.ts';
import type { OcrModels } from './models/models.ts';
import { isPhoto, PAGE_MIN_PAPER, paperShare } from './decode/paper-share.ts';
import type { OcrMode, OcrOptions, OcrResult, Quad } from './ocr-types.ts';
import type { RecognizedLine } from './recognize/recognized-line.ts';
import type { LineReading, RecognizeOptions, Recognizer } from './recognize/recognizer.ts';
import { fixText, TEXT_FIXES, textFixContext } from './words/text-fixes.ts';

/** The layout stage's signature (`src/ocr/layout/build-layout.ts`). */
export type BuildLayout = (lines: RecognizedLine[], page: { width: number; height: number; mode: OcrMode; ordered?: boolean }) => OcrResult;

export interface OcrPipelineDeps {
  models: OcrModels;
  recognizer: Recognizer;
  buildLayout: BuildLayout;
  /** English words for the text-fix stage's lexicon fixes; none: they pass. */
  lexicon?: EnglishLexicon;
}

export interface OcrRun {
  result: OcrResult;
  /** Milliseconds per stage, when asked for. */
  timings?: Record<string, number>;
  /** Ablation (`bench:ocr --ablate`): the result with each text fix left out, by the fix's name. */
  without?: Record<string, OcrResult>;
}

/** PaddleOCR's `drop_score`: lines read with less confidence are noise far more often than text. */
const MIN_LINE_CONFIDENCE = 0.5;
const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;

/** Whether a line's reading is kept as text (`toLines`). */
export function isLegible(r: LineReading): boolean {
  return r.text.trim() !== '' && r.confidence >= MIN_LINE_CONFIDENCE;
}

/** A BCP-47 guess for one line: Chinese when it has Han characters, else the first Latin-script hint's language, else English. */
export function guessLanguage(text: string, hints: readonly string[]): string | undefined {
  if (HAN.test(text)) return 'zh';
  if (!LETTER.test(text)) return undefined;
  return hints.map(latinLanguageOf).find((code) => code !== undefined) ?? 'en';
}

/** Boxes found on an image decoded at `scale` of its size, in the original image's pixels. */
function toOriginalPixels(quads: readonly Quad[], scale: number): readonly Quad[] {
  if (scale === 1) return quads;
  return quads.map((quad) => quad.map((p) => ({ x: p.x / scale, y: p.y / scale })) as Quad);
}

/**
 * `scene`: the image is a photo (TEXT_DETECTION of a street, a sign), where doubtful words are mostly
 * textures and fragments; on a page (mostly paper: `paper-share.ts`) they are faint print and stay.
 */
function toLines(quads: readonly Quad[], readings: readonly LineReading[], options: OcrOptions, scene: boolean): RecognizedLine[] {
  const read = quads.flatMap((box, i) => {
    const r = readings[i];
    if (!isLegible(r)) return [];
    const language = r.language ?? guessLanguage(r.text, options.languageHints);
    const line = { box, text: r.text, confidence: r.confidence, chars: r.chars, ...(language ? { language } : {}) };
    // Photos (TEXT mode) read by PP-OCR: doubtful words are mostly textures and fragments.
    return [{ line, photo: scene && r.language === undefined }];
  });
  const checked = dropDoubtfulWordsOfPhoto(read.filter((r) => r.photo).map((r) => r.line));
  let k = 0;
  return read.flatMap((r) => (r.photo ? (checked[k++] ?? []) : [r.line]));
}

type Read = { quads: readonly Quad[]; readings: LineReading[]; ordered: boolean; classified: number; photo: boolean };

/**
 * Detects the lines, orients them and has the recognizer read them (or the page, or the crop, whole).
 * A page scanned sideways or upside down (`OrientedLines.turn`) is read again from the start turned upright,
 * and its boxes are put back in the pixels of the image as it came. A page sent without hints that the
 * recognizer finds to be in a script it reads only when hinted (`Recognizer.languageOf`) is read again so.
 * When nothing legible comes of it, the image is looked at once more, enlarged (`DetectOptions.enlarged`):
 * an image with no text costs one more detection, a sign the detector saw only as texture comes back. A
 * crop is read whole instead (`readLines`).
 */
async function detectAndRead(
  screen: Descreened,
  deps: OcrPipelineDeps,
  options: OcrOptions,
  wholePaper: number,
  crop: boolean,
  lap: (stage: string) => void,
): Promise<Read> {
  const { image } = screen;
  // Less than half paper: detected as a photo; read as one unless its lines lie on paper of their own (`isPhoto`).
  const mostlyNotPaper = wholePaper < PAGE_MIN_PAPER;
  const look = async (enlarged: boolean): Promise<Read> => {
    const detect = (img: DecodedImage) => detectAndOrient(img, deps, lap, { photo: mostlyNotPaper, enlarged });
    const oriented = await detect(image);
    const photo = isPhoto(image, oriented.quads, wholePaper);
    const recognizeOptions = { ...options, photo };
    // Sent without hints, a page in a script the default recognizer lacks is read again as if hinted.
    const readIn = async (img: DecodedImage, lines: OrientedLines, screened?: Descreened) => {
      const read = (o: RecognizeOptions) => readLines(img, lines, deps, o, crop, screened);
      const first = await read(recognizeOptions);
      const language = await deps.recognizer.languageOf?.(img, first.quads, first.readings, recognizeOptions);
      return language ? read({ ...recognizeOptions, languageHints: [language] }) : first;
    };
    const turns = crop ? 0 : oriented.turn;
    if (turns === 0) return { ...(await readIn(image, oriented, screen)), photo };
    // A page turned upright is read on the descreened image only (the screen's tiles are the unturned image's).
    const upright = await turnImage(image, turns);
    const turned = await readIn(upright, await detect(upright));
    return { ...turned, photo, quads: unturnQuads(turned.quads, turns, image), classified: oriented.classified + turned.classified };
  };
  const read = await look(false);
  if (crop || read.readings.some(isLegible)) return read;
  const again = await look(true);
  return again.readings.some(isLegible) ? again : read;
}

async function detectAndOrient(
  image: DecodedImage,
  deps: OcrPipelineDeps,
  lap: (stage: string) => void,
  look: { photo: boolean; enlarged: boolean },
): Promise<OrientedLines> {
  const boxes: TextBox[] = await detectText(image, deps.models.detector, look);
  lap('detect');
  const oriented = await orientLines(
    image,
    boxes.map((b) => b.box),
    deps.models.classifier,
  );
  lap('classify');
  return oriented;
}

async function readLines(
  image: DecodedImage,
  oriented: OrientedLines,
  deps: OcrPipelineDeps,
  recognizeOptions: RecognizeOptions,
  crop: boolean,
  screen?: Descreened,
): Promise<Omit<Read, 'photo'>> {
  // A word or line crop on which nothing line-sized was found is read whole (below).
  const found = crop ? linesOfCrop(image, oriented.quads) : oriented.quads;
  const page = await deps.recognizer.readPage?.(image, found, recognizeOptions);
  let quads = page?.quads ?? deps.recognizer.groupLines?.(image, found, recognizeOptions) ?? found;
  let readings = page?.readings ?? (await deps.recognizer.recognize(image, quads, recognizeOptions));
  // Lines regrouped by the recognizer (Tesseract rows) no longer match the classifier's indices.
  if (!page && quads.length === oriented.quads.length && quads.every((q, i) => q === oriented.quads[i]))
    ({ quads, readings } = await settleFlips(quads, readings, oriented.flipped, (q) =>
      deps.recognizer.recognize(image, q, recognizeOptions),
    ));
  if (quads.length === 0 && crop) {
    quads = [imageQuad(image)];
    readings = await deps.recognizer.recognize(image, quads, recognizeOptions);
  }
  if (!page && screen?.original)
    readings = await readOnScreenAsPrinted(screen.original, quads, readings, screen.onScreen, deps, recognizeOptions);
  return { quads, readings, ordered: page !== undefined, classified: oriented.classified };
}

/**
 * Lines on a halftone screen read again on the image as printed, each keeping the surer reading:
 * averaging the screen away lets the detector find text on dark bars, but it also softens small print
 * on a light screen, which the recognizer read better with the dots (docs/decisions.md).
 */
async function readOnScreenAsPrinted(
  original: DecodedImage,
  quads: readonly Quad[],
  readings: LineReading[],
  onScreen: (quad: Quad) => boolean,
  deps: OcrPipelineDeps,
  recognizeOptions: RecognizeOptions,
): Promise<LineReading[]> {
  const again = quads.flatMap((q, i) => (onScreen(q) ? [i] : []));
  if (again.length === 0) return readings;
  const printed = await deps.recognizer.recognize(
    original,
    again.map((i) => quads[i]),
    recognizeOptions,
  );
  const out = [...readings];
  again.forEach((i, k) => {
    if (printed[k].confidence > out[i].confidence) out[i] = printed[k];
  });
  return out;
}

/**
 * Bytes → `OcrResult`: decode, detect, orient, recognize, fix the text (`text-fixes.ts`), lay out. Each stage is a plain function
 * over plain data; this only composes them and times them.
 *
 * @example const { result } = await runOcr(bytes, { models, recognizer, buildLayout }, { mode: 'text', languageHints: [] });
 */
export async function runOcr(
  bytes: Uint8Array,
  deps: OcrPipelineDeps,
  options: OcrOptions,
  profile = false,
  ablate = false,
): Promise<OcrRun> {
  const timings: Record<string, number> = {};
  let last = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (now - last);
    last = now;
  };

  // Detection and reading see the image with its halftone screens averaged away; the lines on one are read on both.
  const screen = descreen(await decodeImage(bytes));
  const image = screen.image;
  // What the image is decides how it is read (`isPhoto`); the feature asked for decides only what is dropped.
  const wholePaper = paperShare(image);
  lap('decode');
  const crop = isCrop(image);
  // A line crop the recognizer reads whole (a script only Tesseract reads) needs no detection; one line, its paper decides.
  const cropPhoto = isPhoto(image, [], wholePaper);
  const direct = crop ? await deps.recognizer.readCrop?.(image, { ...options, photo: cropPhoto }) : undefined;
  const { quads, readings, ordered, classified, photo } = direct
    ? { ...direct, ordered: false, classified: 0, photo: cropPhoto }
    : await detectAndRead(screen, deps, options, wholePaper, crop, lap);
  const scene = options.mode === 'text' && photo;
  lap('recognize');
  const context = textFixContext(options, deps.lexicon);
  const fixed = fixText(readings, context);
  lap('fix text');
  // A recognizer that read the page whole (`readPage`) hands its lines over in its reading order.
  // Boxes and the page's size are in the original image's pixels, however it was decoded.
  const page = {
    width: Math.round(image.width / image.scale),
    height: Math.round(image.height / image.scale),
    mode: options.mode,
    ordered,
  };
  const lineBoxes = toOriginalPixels(quads, image.scale);
  const result = deps.buildLayout(toLines(lineBoxes, fixed, options, scene), page);
  lap('layout');
  const without = ablate
    ? Object.fromEntries(
        TEXT_FIXES.map(({ name }) => [
          name,
          deps.buildLayout(toLines(lineBoxes, fixText(readings, context, new Set([name])), options, scene), page),
        ]),
      )
    : undefined;
  if (!profile) return without ? { result, without } : { result };
  timings.lines = quads.length;
  timings.classified = classified;
  return { result, timings, ...(without ? { without } : {}) };
}
