import { cropLine, type LineCrop } from './crop-line.ts';
import { imageQuad, quadSize } from '../geometry.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { identifyLanguages, likelyLanguage, modelsForShortLine, SEVERAL, SEVERAL_MODELS, tellLines } from './identify-language.ts';
import { inkProfile } from './ink-profile.ts';
import { findLanguage, isLanguageInstalled, LANGUAGES, type Language } from './languages.ts';
import type { Quad } from '../ocr-types.ts';
import type { LineReading, Recognizer, RecognizeOptions } from './recognizer.ts';
import { fuseDiacritics, letterAgreement } from './tesseract/fuse-diacritics.ts';
import { mergeRowQuads } from './tesseract/merge-row-quads.ts';
import { locateTraineddata } from './tesseract/traineddata-location.ts';
import { createTesseractRecognizer, type TesseractRecognizer } from './tesseract/tesseract-recognizer.ts';
import type { TesseractReader } from './tesseract/shared-tesseract.ts';
import { TesseractWorkers } from './tesseract/tesseract-workers.ts';
import { readRuledPage } from './tesseract/read-ruled-page.ts';
import { refineWordGapsOnInk } from '../words/word-gaps.ts';

/** One Tesseract pass over every line: the models loaded together and the language they stand for. */
export interface TesseractPass {
  traineddata: string[];
  /** The first hinted language the pass reads, reported as the line's language. */
  language: Language;
  /** Latin-script pass: its reading is fused with PP-OCR's (`fuseDiacritics`). */
  latin: boolean;
}

export interface RecognitionPlan {
  /** Run PP-OCR: a hint it covers (en, zh), no hint at all, or Latin lines to fuse with Tesseract. */
  paddle: boolean;
  /** PP-OCR's reading competes on its own (a PP language was hinted, or nothing was). */
  paddleAlone: boolean;
  tesseract: TesseractPass[];
}

/** Each Tesseract pass costs a model (~0.1–0.5 GB) and a read of every line: hints beyond these are ignored. */
export const MAX_TESSERACT_PASSES = 3;

/**
 * Which recognizers read an image, from its language hints. No hints: PP-OCR alone, as Google
 * auto-detects (its characters give `locale`). Hinted languages PP-OCR covers (en, zh): PP-OCR.
 * The rest: Tesseract with the language's model; Latin-script languages share one pass
 * (`deu+fra`, plus `eng` when English is hinted too) that is fused with PP-OCR and reads each line
 * with the model of the language it is in (`readInOwnLanguage`), every other script gets its own
 * pass. Hints whose model is not installed are ignored (validation refuses them first).
 *
 * @example planRecognition(['vi']) // { paddle: true, paddleAlone: false, tesseract: [{ traineddata: ['vie'], latin: true, … }] }
 */
export function planRecognition(hints: readonly string[]): RecognitionPlan {
  const languages = [...new Set(hints.map(findLanguage).filter((l): l is Language => l !== undefined))];
  const paddleLanguages = languages.filter((l) => l.recognizer === 'ppocr');
  const tesseractLanguages = languages.filter((l) => l.recognizer === 'tesseract' && l.traineddata !== undefined);
  const passes: TesseractPass[] = [];
  const latin = tesseractLanguages.filter((l) => l.script === 'Latn');
  if (latin.length > 0) {
    const english = paddleLanguages.some((l) => l.code === 'en') && locateTraineddata('eng') !== undefined ? ['eng'] : [];
    passes.push({ traineddata: [...new Set([...latin.map((l) => l.traineddata!), ...english])], language: latin[0], latin: true });
  }
  for (const l of tesseractLanguages.filter((t) => t.script !== 'Latn'))
    passes.push({ traineddata: [l.traineddata!], language: l, latin: false });
  const tesseract = passes.slice(0, MAX_TESSERACT_PASSES);
  const paddleAlone = paddleLanguages.length > 0 || tesseract.length === 0;
  return { paddle: paddleAlone || tesseract.some((p) => p.latin), paddleAlone, tesseract };
}

/** The Unicode script each catalogue script stands for, to check a reading is in the expected writing. */
const SCRIPT_RE: Record<Language['script'], RegExp> = {
  Latn: /\p{Script=Latin}/u,
  Hans: /\p{Script=Han}/u,
  Hant: /\p{Script=Han}/u,
  Arab: /\p{Script=Arabic}/u,
  Hebr: /\p{Script=Hebrew}/u,
  Kore: /\p{Script=Hangul}/u,
  Jpan: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
  Deva: /\p{Script=Devanagari}/u,
  Cyrl: /\p{Script=Cyrillic}/u,
};

/** The share of a reading's letters written in `script`; 0.5 without letters. */
function scriptShare(reading: LineReading, script: Language['script']): number {
  const letters = [...reading.text].filter((c) => /\p{L}/u.test(c));
  if (letters.length === 0) return 0.5;
  return letters.filter((c) => SCRIPT_RE[script].test(c)).length / letters.length;
}

/** Confidence × the share of letters written in the pass's script: a model reading a foreign script confidently still loses. */
function scriptScore(reading: LineReading, script: Language['script']): number {
  return reading.confidence * scriptShare(reading, script);
}

/** With a Latin pass planned, PP-OCR's own reading competes for Chinese only: the fused reading already holds its Latin letters. */
function paddleScore(reading: LineReading, latinPass: boolean): number {
  return latinPass ? scriptScore(reading, 'Hans') : Math.max(scriptScore(reading, 'Latn'), scriptScore(reading, 'Hans'));
}

/** Tesseract reads crops at their own resolution up to this height (it scales them itself). */
const TESSERACT_CROP_MAX_HEIGHT = 128;

function cropForTesseract(image: DecodedImage, quad: Quad, maxHeight = TESSERACT_CROP_MAX_HEIGHT) {
  const size = quadSize(quad);
  const height = Math.max(2, Math.round(Math.min(size.height, maxHeight)));
  const width = Math.max(2, Math.round((size.width * height) / Math.max(1, size.height)));
  return cropLine(image, quad, width, height);
}

const EMPTY: LineReading = { text: '', confidence: 0, chars: [] };

/** Tesseract's model of black-letter (Fraktur) print, `@tesseract.js-data/frk`. */
const BLACK_LETTER = 'frk';
/** Lines of a page read by the Fraktur model to tell black letter from roman type. */
const BLACK_LETTER_SAMPLE = 10;
/** Sampled lines are within this share of the page's median line height. */
const BODY_HEIGHT_TOLERANCE = 0.25;
/** Fewer lines than this are a caption or a word, not a page to judge. */
const BLACK_LETTER_MIN_LINES = 3;

/** The height of the page's body text: the median line's (not mastheads, rules or ornaments); 0 without lines. */
function bodyLineHeight(lines: readonly Quad[]): number {
  const heights = lines.map((q) => quadSize(q).height).sort((a, b) => a - b);
  return heights[heights.length >> 1] ?? 0;
}

/**
 * Whether a page of a Latin-script language is printed in black letter, from the page itself: its
 * longest lines of body text read by the Fraktur model show long s. A Latin-script hint only makes the question
 * worth asking (the sample costs a few Tesseract line reads); the answer comes from the print.
 * Lines are read one at a time and reading stops once the answer is known: on the Fraktur pages
 * measured, two to four lines settled it (these long lines take ~0.25 s each; all ten took 1.5–3.5 s).
 */
async function isBlackLetter(image: DecodedImage, lines: readonly Quad[], body: number, tesseract: TesseractRecognizer): Promise<boolean> {
  if (lines.length < BLACK_LETTER_MIN_LINES || locateTraineddata(BLACK_LETTER) === undefined) return false;
  const sample = lines
    .map((q, i) => ({ i, size: quadSize(q) }))
    .filter((s) => Math.abs(s.size.height - body) <= BODY_HEIGHT_TOLERANCE * body)
    .sort((a, b) => b.size.width - a.size.width)
    .slice(0, BLACK_LETTER_SAMPLE);
  let withLongS = 0;
  for (const [k, { i }] of sample.entries()) {
    if (withLongS + (sample.length - k) < BLACK_LETTER_MIN_LINES_WITH_LONG_S) return false;
    const [read] = await tesseract.recognizeLines([cropForTesseract(image, lines[i])], [BLACK_LETTER]);
    if (read.text.includes(LONG_S)) withLongS += 1;
    if (withLongS >= BLACK_LETTER_MIN_LINES_WITH_LONG_S) return true;
  }
  return false;
}

/**
 * The height (px) PP-OCR's boxes of body text have on the page Tesseract reads: its layout analysis
 * costs per pixel, while its line reader scales every line to its own fixed height, so a page of
 * large print is read as fast and as well shrunk (Fraktur pages: 1 − CER 87.6 / 81.4 → 93.0 / 85.0 on tune / check, −25 % time).
 */
const PAGE_BODY_HEIGHT = 18;

/**
 * Long s, which black-letter print sets in nearly every line and roman type hardly ever: the Fraktur
 * model reads it where the roman ones read "f" ("Wiſſenſchaft" / "Wiffenfchaft"). Their confidences
 * alone hardly differ (0.99 against 0.97 on a Fraktur newspaper), the letter does.
 */
const LONG_S = 'ſ';
const BLACK_LETTER_MIN_LINES_WITH_LONG_S = 2;

/** Long s is written s today (and in transcriptions): searchable text, as a reader types it. */
function modernS(reading: LineReading): LineReading {
  if (!reading.text.includes(LONG_S)) return reading;
  const chars = reading.chars.map((c) => (c.text.includes(LONG_S) ? { ...c, text: c.text.replaceAll(LONG_S, 's') } : c));
  return { ...reading, text: reading.text.replaceAll(LONG_S, 's'), chars };
}

/** A crop whose ink lies this much in one band of rows is one line (Arabic's dots and marks included). */
const ONE_LINE_BAND_SHARE = 0.9;

/**
 * Whether a crop holds one line of text, from its ink rows. Tesseract reads a crop as one line
 * (`PSM.SINGLE_LINE`); a crop of several lines still goes through the detector and row grouping.
 */
function isOneLine(image: DecodedImage): boolean {
  const ink = inkProfile(image);
  return ink !== undefined && ink.bandShare >= ONE_LINE_BAND_SHARE;
}

/**
 * The recognizer the pipeline uses: routes every line to the recognizer(s) its image's language
 * hints call for (`planRecognition`) and keeps, per line, the reading that best fits: the fused
 * PP + Tesseract reading for Latin-script languages, Tesseract's for other scripts, PP-OCR's for
 * English and Chinese, and the highest script-weighted confidence when several compete.
 *
 * @example createRoutedRecognizer({ paddle: createPaddleRecognizer(…), tesseract: createTesseractRecognizer(workers) })
 */
export function createRoutedRecognizer(deps: { paddle: Recognizer; tesseract: TesseractRecognizer }): Recognizer {
  return {
    name: 'routed',
    groupLines(image, lines, options) {
      const plan = planRecognition(options?.languageHints ?? []);
      if (plan.tesseract.length === 0) return [...lines];
      const merged = mergeRowQuads(lines, image);
      // PP-OCR's detector finds whole Latin lines; joining them on a row would read across a page's
      // columns (a two-column newspaper). A single row (a word crop, a scanned line) is read whole.
      return plan.tesseract.every((p) => p.latin) && merged.length > 1 ? [...lines] : merged;
    },
    async readCrop(image, options) {
      const plan = planRecognition(options?.languageHints ?? []);
      // Only scripts Tesseract reads alone: PP-OCR's lines (English, Chinese, the Latin fusion) keep their detector.
      if (plan.paddle || plan.tesseract.length === 0 || !isOneLine(image)) return undefined;
      const quads = [imageQuad(image)];
      return { quads, readings: await this.recognize(image, quads, options) };
    },
    async languageOf(image, lines, readings, options) {
      // A photo's unsure lines are mostly textures, which any model reads as something.
      if ((options?.languageHints.length ?? 0) > 0 || options?.photo) return undefined;
      return (await otherScript(image, lines, readings, deps.tesseract))?.code;
    },
    async readPage(image, lines, options) {
      const latin = planRecognition(options?.languageHints ?? []).tesseract.find((p) => p.latin);
      if (!latin) return undefined;
      const body = bodyLineHeight(lines);
      if (!(await isBlackLetter(image, lines, body, deps.tesseract))) return undefined;
      // PP-OCR's Latin reading of black letter is the wrong one, and its detector runs lines across
      // the narrow ruled gutters of old newspapers: Fraktur pages are read by Tesseract, a ruled column at a time.
      const readLines = (quads: readonly Quad[]) =>
        deps.tesseract.recognizeLines(
          quads.map((q) => cropForTesseract(image, q)),
          [BLACK_LETTER],
        );
      const page = await readRuledPage(image, lines, body, deps.tesseract, [BLACK_LETTER], PAGE_BODY_HEIGHT / body, readLines);
      return { quads: page.map((l) => l.box), readings: page.map((l) => ({ ...modernS(l.reading), language: latin.language.code })) };
    },
    async recognize(image: DecodedImage, lines: readonly Quad[], options?: RecognizeOptions): Promise<LineReading[]> {
      const hints = options?.languageHints ?? [];
      const plan = planRecognition(hints);
      if (lines.length === 0) return [];
      if (hints.length === 0) return restoreAccents(image, lines, await deps.paddle.recognize(image, lines, options), deps.tesseract);
      if (plan.tesseract.length === 0) return deps.paddle.recognize(image, lines, options);
      const raw = plan.paddle ? await deps.paddle.recognize(image, lines, options) : lines.map(() => EMPTY);
      // Fusion aligns PP-OCR's words with Tesseract's: PP's word gaps are placed from the ink first.
      const paddle = raw.map((r) => refineWordGapsOnInk(r, r.ink));
      const crops = lines.map((q) => cropForTesseract(image, q));
      const passes: LineReading[][] = [];
      for (const pass of plan.tesseract)
        passes.push(
          pass.latin
            ? await readInOwnLanguage(image, lines, crops, pass.traineddata, paddle, deps.tesseract)
            : await deps.tesseract.recognizeLines(crops, pass.traineddata),
        );
      const latinPass = plan.tesseract.some((p) => p.latin);
      return lines.map((_, i) => {
        const candidates: Array<{ reading: LineReading; score: number }> = [];
        if (plan.paddleAlone) candidates.push({ reading: paddle[i], score: paddleScore(paddle[i], latinPass) });
        plan.tesseract.forEach((pass, p) => {
          const own = passes[p][i];
          const reading = pass.latin ? fuseDiacritics(paddle[i], own) : own;
          const language = own.language ?? pass.language.code;
          candidates.push({ reading: { ...reading, language }, score: scriptScore(reading, pass.language.script) });
        });
        // Ties go to the later, language-specific reading.
        return candidates.reduce((best, c) => (c.score >= best.score ? c : best)).reading;
      });
    },
  };
}

/** Rows at which Tesseract reads a line again when its first reading's letters are not PP-OCR's. */
const SMALL_LINE_HEIGHT = 40;
/** Below this share of letters in common the two readers read different things (a long print line differs by a letter or two). */
const AGREEING_LETTERS = 0.9;

/**
 * Tesseract gives up on some large sign words (nothing, or a few wrong letters, where PP-OCR reads the
 * word plainly): a line whose Tesseract letters are not PP-OCR's is read again, by the same model, twice:
 * at a small height, and binarised per tile (a sign lit unevenly, or embossed, defeats one threshold for
 * the whole line). The reading whose letters agree most with PP-OCR's is kept (its marks are what fusion
 * takes; ties: the surer). VinText words outside ocr-dev: the small height 83.2 / 86.9 → 84.7 / 87.7 (200
 * words); the tiled read 86.6 / 84.6 → 88.3 / 84.9 and 84.6 / 85.8 → 84.2 / 87.0 (two draws of 300).
 */
async function readUnlikeAgain(
  image: DecodedImage,
  lines: readonly Quad[],
  paddle: readonly LineReading[],
  models: ReadonlyArray<string | undefined>,
  first: ReadonlyArray<LineReading | undefined>,
  tesseract: TesseractRecognizer,
): Promise<Array<LineReading | undefined>> {
  const agreement = first.map((read, i) => (read === undefined || paddle[i].chars.length === 0 ? 1 : letterAgreement(paddle[i], read)));
  const unlike = models.map((model, i) => model !== undefined && agreement[i] < AGREEING_LETTERS);
  if (!unlike.includes(true)) return [...first];
  const unlikeModels = models.map((m, i) => (unlike[i] ? m : undefined));
  const small = await readWithOwnModels(
    unlikeModels,
    (i) => cropForTesseract(image, lines[i], SMALL_LINE_HEIGHT),
    tesseract,
    SMALL_LINE_HEIGHT,
  );
  const tiled = await readWithOwnModels(unlikeModels, (i) => cropForTesseract(image, lines[i]), tesseract, undefined, true);
  return first.map((read, i) => {
    if (read === undefined) return read;
    let best = read;
    let bestAgreement = agreement[i];
    for (const other of [small[i], tiled[i]]) {
      if (other === undefined) continue;
      const b = letterAgreement(paddle[i], other);
      if (b > bestAgreement || (b === bestAgreement && other.confidence > best.confidence)) [best, bestAgreement] = [other, b];
    }
    return best;
  });
}

/** Below this median character confidence of its longest lines PP-OCR cannot read the page: it may be in a script it lacks. */
const UNREAD_PAGE = 0.8;
/** The page's longest lines whose reading tells whether PP-OCR could read the page. */
const UNREAD_SAMPLE = 8;
/** The page's longest rows the other scripts' models read to tell which one it is in. */
const SCRIPT_SAMPLE = 3;
/** Share of those rows' letters that must be in one script: most of them. */
const MIN_SCRIPT_SHARE = 0.5;
/** One language per script PP-OCR does not read (Japanese shares its Han with Chinese, which PP-OCR reads). */
const OTHER_SCRIPTS = LANGUAGES.filter(
  (l) => l.recognizer === 'tesseract' && l.traineddata !== undefined && !['Latn', 'Hans', 'Hant', 'Jpan'].includes(l.script),
);

/**
 * The language of a page sent without hints whose script PP-OCR lacks but another installed model
 * reads (Google reads Arabic unhinted), from PP-OCR's reading of it: where PP-OCR was unsure of most
 * characters of the page's longest lines (Arabic read as Latin letters: 0.4–0.8; every Latin and
 * Chinese kind of ocr-dev: 0.8 or more), the models of the scripts it lacks read the longest rows
 * together in one pass, and the script most of their letters are in is the page's when that reading
 * is surer than PP-OCR's.
 */
async function otherScript(
  image: DecodedImage,
  lines: readonly Quad[],
  readings: readonly LineReading[],
  tesseract: TesseractRecognizer,
): Promise<Language | undefined> {
  const others = OTHER_SCRIPTS.filter(isLanguageInstalled);
  if (lines.length === 0 || lines.length !== readings.length || others.length === 0) return undefined;
  // Indices of the `n` widest quads.
  const widest = (quads: readonly Quad[], n: number) =>
    quads
      .map((_, i) => i)
      .sort((a, b) => quadSize(quads[b]).width - quadSize(quads[a]).width)
      .slice(0, n);
  const ours = widest(lines, UNREAD_SAMPLE).map((i) => readings[i]);
  // Per character, so that a line's sure pieces (a number, a bracket) weigh by their length.
  const sure = ours.flatMap((r) => r.chars.filter((c) => c.text.trim() !== '').map((c) => c.confidence)).sort((a, b) => a - b);
  if (sure.length === 0) return undefined;
  if (sure[sure.length >> 1] >= UNREAD_PAGE) return undefined;
  // Rows, not the detector's pieces of them: a script's letters need a line's length to show.
  const merged = mergeRowQuads(lines, image);
  const rows = widest(merged, SCRIPT_SAMPLE).map((i) => merged[i]);
  const theirs = await tesseract.recognizeLines(
    rows.map((q) => cropForTesseract(image, q)),
    others.map((l) => l.traineddata!),
  );
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const ppocr = mean(ours.map((r) => paddleScore(r, false)));
  let best: { language: Language; score: number; share: number } | undefined;
  for (const language of others) {
    const score = mean(theirs.map((r) => scriptScore(r, language.script)));
    const share = mean(theirs.map((r) => scriptShare(r, language.script)));
    if (!best || score > best.score) best = { language, score, share };
  }
  // Garbage read by several models at once mixes their scripts; a page in one script reads in it.
  return best && best.share >= MIN_SCRIPT_SHARE && best.score > ppocr ? best.language : undefined;
}

/** The catalogue code of a Tesseract model's language (`eng`: English, which PP-OCR reads alone otherwise). */
function languageOfModel(traineddata: string): string | undefined {
  return traineddata === 'eng' ? 'en' : LANGUAGES.find((l) => l.traineddata === traineddata)?.code;
}

/**
 * Each line read by Tesseract with the model `models[i]` names (or several joined by "+", as
 * Tesseract's `-l` takes them), the lines of one model in one call; undefined where none is named.
 */
async function readWithOwnModels(
  models: ReadonlyArray<string | undefined>,
  cropOf: (line: number) => LineCrop,
  tesseract: TesseractRecognizer,
  height?: number,
  tiled?: boolean,
): Promise<Array<LineReading | undefined>> {
  const readings: Array<LineReading | undefined> = models.map(() => undefined);
  for (const model of new Set(models)) {
    if (model === undefined) continue;
    const indices = models.flatMap((m, i) => (m === model ? [i] : []));
    const own = await tesseract.recognizeLines(indices.map(cropOf), model.split('+'), height, tiled);
    indices.forEach((i, k) => {
      readings[i] = own[k];
    });
  }
  return readings;
}

/**
 * The lines of a Latin-script pass, read by Tesseract (`readUnlikeAgain` included). One hinted
 * language: its model. Several (a leaflet in six): each line by its own language's model, as one
 * pass of all the models together mixes their accents (Spanish and Portuguese "á" read as German
 * "ä"). Each line's language is told among the hinted ones from PP-OCR's words (`tellLines`); where
 * none can be told (no line long enough), each line is read by its likeliest language's model with
 * the others behind it (`modelsForShortLine`).
 */
async function readInOwnLanguage(
  image: DecodedImage,
  lines: readonly Quad[],
  crops: readonly LineCrop[],
  traineddata: readonly string[],
  paddle: readonly LineReading[],
  tesseract: TesseractRecognizer,
): Promise<LineReading[]> {
  // One language needs no telling. `tellLines` tells every line or none; untold, each line reads its
  // likeliest language's model first.
  const told =
    traineddata.length > 1
      ? tellLines(
          paddle.map((r) => r.text),
          lines,
          traineddata,
        )
      : [];
  const models = told.length > 0 && !told.includes(undefined) ? told : paddle.map((r) => modelsForShortLine(r.text, traineddata));
  const first = await readWithOwnModels(models, (i) => crops[i], tesseract);
  const own = await readUnlikeAgain(image, lines, paddle, models, first, tesseract);
  return own.map((reading, i) => {
    const code = told[i];
    const language = code === undefined ? undefined : languageOfModel(code);
    return language ? { ...reading!, language } : reading!;
  });
}

/**
 * A page read without a hint whose lines are French, German, Spanish, Italian or Portuguese
 * (`identifyLanguages`): PP-OCR's letters lose those languages' accents ("premiere", "sorgfaltig"),
 * so such lines are read again by their language's Tesseract model (where no line could be told, by
 * its likeliest language's model with the others behind it), and fused as if it had been hinted. Lines of English, and every line
 * of any other page, keep PP-OCR's reading.
 */
async function restoreAccents(
  image: DecodedImage,
  lines: readonly Quad[],
  paddle: LineReading[],
  tesseract: TesseractRecognizer,
): Promise<LineReading[]> {
  const languages = identifyLanguages(
    paddle.map((r) => r.text),
    lines,
  );
  const several = languages.every((code) => code === SEVERAL);
  // Black letter read line by line in roman type is no better (and each line costs ~0.1 s): a
  // Fraktur page is read right only whole, by Tesseract's page reader, which the hint `de` asks for.
  const german = lines.filter((_, i) => languages[i] === 'de' || several);
  const blackLetter = german.length > 0 && (await isBlackLetter(image, german, bodyLineHeight(german), tesseract));
  let models: Array<string | undefined> = [];
  if (!several) {
    models = languages.map((code) => {
      const language = code === undefined || (code === 'de' && blackLetter) ? undefined : findLanguage(code);
      return language !== undefined && isLanguageInstalled(language) ? language.traineddata : undefined;
    });
  } else if (!blackLetter) {
    const installed = SEVERAL_MODELS.filter((model) => locateTraineddata(model) !== undefined);
    if (installed.length > 0) models = paddle.map((r) => modelsForShortLine(r.text, installed));
  }
  const first = await readWithOwnModels(models, (i) => cropForTesseract(image, lines[i]), tesseract);
  const own = await readUnlikeAgain(image, lines, paddle, models, first, tesseract);
  return paddle.map((reading, i) => {
    const language = several ? likelyLanguage(reading.text) : languages[i];
    const tesseractReading = own[i];
    if (tesseractReading) return { ...fuseDiacritics(refineWordGapsOnInk(reading, reading.ink), tesseractReading), language };
    return reading.language === undefined && language !== undefined ? { ...reading, language } : reading;
  });
}

/**
 * The routed recognizer. With `tesseract` (the node's shared set: `tesseractClient`) it reads through
 * that; otherwise it has Tesseract workers of its own: models load on first use, at most `maxLoaded`
 * language sets stay loaded, and `close()` ends the Tesseract threads.
 *
 * @example
 *   const router = createLanguageRouter(createPaddleRecognizer(models));
 *   await runOcr(bytes, { models, recognizer: router.recognizer, buildLayout }, options);
 *   await router.close();
 */
export function createLanguageRouter(
  paddle: Recognizer,
  options: { maxLoaded?: number; tesseract?: TesseractReader } = {},
): { recognizer: Recognizer; close(): Promise<void> } {
  const own = options.tesseract ? undefined : new TesseractWorkers({ maxLoaded: options.maxLoaded ?? 3 });
  const recognizer = createRoutedRecognizer({
    paddle,
    tesseract: createTesseractRecognizer(options.tesseract ?? own!),
  });
  return { recognizer, close: async () => own?.close() };
}
