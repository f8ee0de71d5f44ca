import type { RecognizedChar } from '../recognized-line.ts';
import type { LineReading } from '../recognizer.ts';

/**
 * Tesseract agrees with PP-OCR on (nearly) every letter and is sure of itself: a clean printed
 * line, where Tesseract's own letters (ß, œ, ç, ñ …, which PP-OCR's dictionary lacks) are best.
 */
const AGREEMENT_FOR_TESSERACT = 0.9;
const CONFIDENCE_FOR_TESSERACT = 0.85;
/** Tesseract is nearly certain and surer than PP-OCR (letters like `ồ`, `ữ` that PP-OCR misreads as `6`, `ur`). */
const TESSERACT_CERTAIN = 0.95;
/** PP-OCR is unsure and Tesseract is not: PP's letters are no better a skeleton than Tesseract's. */
const PP_UNSURE = 0.6;

/** The letter without its marks, lower-cased: `Ễ` → `e`, `Đ` → `d`, `ß` stays `ß`. */
export function baseLetter(ch: string): string {
  const stripped = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return stripped.replace(/đ/g, 'd').replace(/ø/g, 'o').replace(/ł/g, 'l').replace(/ı/g, 'i');
}

/** Letters whose capital is the small letter enlarged: neither reader can tell their case apart on a lone word. */
const SAME_SHAPE_CASES = /^[cosvwxzpku]$/;

function withCaseOf(letter: string, model: string): string {
  if (model !== model.toLowerCase()) return letter.toUpperCase();
  if (model !== model.toUpperCase()) return letter.toLowerCase();
  return letter;
}

const isCased = (ch: string) => ch.toLowerCase() !== ch.toUpperCase();

/**
 * A word in capitals has its same-shape letters in capitals too: Tesseract sets `o`, `s`, `c` … as it
 * guesses, so a sign's word came back `LòNG` or `sốNG`. The word is in capitals when its letters after
 * the first that are not same-shape all are (`Sống`, `iPhone` stay as read).
 */
function withWordCase(chars: readonly RecognizedChar[]): RecognizedChar[] {
  const out = [...chars];
  let start = 0;
  for (let end = 0; end <= chars.length; end += 1) {
    if (end < chars.length && !isSpace(chars[end].text)) continue;
    const word = out.slice(start, end);
    const telling = word.slice(1).filter((c) => isCased(c.text) && !SAME_SHAPE_CASES.test(baseLetter(c.text)));
    const upper = telling.length > 0 && telling.every((c) => c.text === c.text.toUpperCase());
    if (upper)
      word.forEach((c, k) => {
        if (SAME_SHAPE_CASES.test(baseLetter(c.text))) out[start + k] = { ...c, text: c.text.toUpperCase() };
      });
    start = end + 1;
  }
  return out;
}

/** The reading with its characters replaced by `chars` (its text joined from them). */
function withChars(reading: LineReading, chars: RecognizedChar[]): LineReading {
  return { ...reading, text: chars.map((c) => c.text).join(''), chars };
}

/** One step of an alignment: a PP index, a Tesseract index, or both (-1 = absent). */
type Step = readonly [pp: number, ts: number];

/** Levenshtein alignment on base letters, in order, as (PP index, Tesseract index) steps. */
function alignBases(pp: readonly string[], ts: readonly string[]): Step[] {
  const rows = pp.length + 1;
  const cols = ts.length + 1;
  const cost = new Uint32Array(rows * cols);
  for (let i = 0; i < rows; i += 1) cost[i * cols] = i;
  for (let j = 0; j < cols; j += 1) cost[j] = j;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const sub = cost[(i - 1) * cols + j - 1] + (pp[i - 1] === ts[j - 1] ? 0 : 1);
      cost[i * cols + j] = Math.min(sub, cost[(i - 1) * cols + j] + 1, cost[i * cols + j - 1] + 1);
    }
  }
  const steps: Step[] = [];
  let i = pp.length;
  let j = ts.length;
  while (i > 0 || j > 0) {
    const here = cost[i * cols + j];
    if (i > 0 && j > 0 && here === cost[(i - 1) * cols + j - 1] + (pp[i - 1] === ts[j - 1] ? 0 : 1)) {
      steps.push([--i, --j]);
    } else if (i > 0 && here === cost[(i - 1) * cols + j] + 1) {
      steps.push([--i, -1]);
    } else {
      steps.push([-1, --j]);
    }
  }
  return steps.reverse();
}

const isSpace = (s: string) => s.trim() === '';

/** The share of the two readings' letters that align on the same base letter (1: the same letters, marks aside). */
export function letterAgreement(pp: LineReading, ts: LineReading): number {
  const ppBases = pp.chars.map((c) => baseLetter(c.text));
  const tsBases = ts.chars.map((c) => baseLetter(c.text));
  return agreementOf(ppBases, tsBases, alignBases(ppBases, tsBases));
}

function agreementOf(ppBases: readonly string[], tsBases: readonly string[], steps: readonly Step[]): number {
  const letters = (bases: readonly string[]) => bases.filter((b) => !isSpace(b)).length;
  const agreed = steps.filter(([i, j]) => i >= 0 && j >= 0 && ppBases[i] === tsBases[j] && !isSpace(ppBases[i])).length;
  return agreed / Math.max(1, letters(ppBases), letters(tsBases));
}

/**
 * Combines PP-OCR's and Tesseract's readings of one Latin-script line. PP-OCR reads scene text far
 * better (its letters are right on photos where Tesseract misreads half of them) but its
 * dictionary has almost no diacritics, Tesseract's `vie`/`fra`/… models have them all: so PP's
 * letters, positions and case, each decorated with Tesseract's marks where the two align on the
 * same base letter (`NGHIEM` + `NgHIÊM` → `NGHIÊM`), plus the word spaces Tesseract found and PP
 * ran together. Tesseract's line is taken whole when the two agree on nearly every letter and
 * Tesseract is confident (clean print), or when Tesseract is the surer of the two and either
 * nearly certain itself or facing an unsure PP-OCR.
 *
 * @example fuseDiacritics(ppLine, tesseractLine).text
 */
export function fuseDiacritics(pp: LineReading, ts: LineReading): LineReading {
  if (ts.chars.length === 0) return pp;
  if (pp.chars.length === 0) return ts;
  const ppBases = pp.chars.map((c) => baseLetter(c.text));
  const tsBases = ts.chars.map((c) => baseLetter(c.text));
  const steps = alignBases(ppBases, tsBases);
  const agreement = agreementOf(ppBases, tsBases, steps);
  if (agreement >= AGREEMENT_FOR_TESSERACT && ts.confidence >= CONFIDENCE_FOR_TESSERACT) {
    // Tesseract's letters, in PP-OCR's case (PP-OCR gets capitals right on signs: `NgHIÊM` → `NGHIÊM`).
    const ppAt = new Map(steps.filter(([i, j]) => i >= 0 && j >= 0 && ppBases[i] === tsBases[j]).map(([i, j]) => [j, pp.chars[i].text]));
    const chars = ts.chars.map((c, j) =>
      ppAt.has(j) && !SAME_SHAPE_CASES.test(baseLetter(c.text)) ? { ...c, text: withCaseOf(c.text, ppAt.get(j)!).normalize('NFC') } : c,
    );
    return withChars(ts, withWordCase(chars));
  }
  if (ts.confidence > pp.confidence && (ts.confidence >= TESSERACT_CERTAIN || pp.confidence < PP_UNSURE))
    return withChars(ts, withWordCase(ts.chars));
  const chars: RecognizedChar[] = [];
  steps.forEach(([i, j], k) => {
    if (i >= 0) {
      const c = pp.chars[i];
      const same = j >= 0 && ppBases[i] === tsBases[j];
      chars.push(same ? { ...c, text: withCaseOf(ts.chars[j].text, c.text).normalize('NFC') } : c);
      return;
    }
    // A space only Tesseract saw, between two letters PP-OCR ran together.
    const previous = chars.at(-1);
    const next = steps.slice(k + 1).find(([ni]) => ni >= 0);
    if (
      isSpace(ts.chars[j].text) &&
      previous !== undefined &&
      !isSpace(previous.text) &&
      next !== undefined &&
      !isSpace(pp.chars[next[0]].text)
    ) {
      chars.push({ text: ' ', x0: previous.x1, x1: Math.max(previous.x1, pp.chars[next[0]].x0), confidence: ts.chars[j].confidence });
    }
  });
  return { text: chars.map((c) => c.text).join(''), confidence: pp.confidence, chars };
}
