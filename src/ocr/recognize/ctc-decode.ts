import { OUTPUT_COLUMNS, TOP_CLASSES } from '../models/top-class-output.ts';
import type { RecognizedChar } from './recognized-line.ts';

export interface CtcReading {
  text: string;
  /** Mean of the characters' probabilities; 0 when nothing was read. */
  confidence: number;
  chars: RecognizedChar[];
  /** Each character's CTC peak (centre of its timesteps) as a fraction of the line, for `refineWordGaps`. */
  centres: number[];
}

interface Run {
  index: number;
  start: number;
  end: number;
  prob: number;
  /** The timestep where the class was likeliest: its runners-up there are the character's alternative. */
  peak: number;
  /** A space read from blank timesteps where the space was likely but not the best class. */
  hesitant?: boolean;
}

/**
 * A blank timestep between two characters where the space class has at least this probability is
 * read as a space. PP-OCR's English recognizer runs words together where it hesitates between the
 * blank and the space; its second choice is the better reading there. On ocr-dev (tune / check):
 * scenes 62.4 / 57.2 → 66.3 / 59.0 (67.0 / 59.4 once photos' lines also lost the ink's word gaps),
 * receipts 90.5 / 91.4 → 90.9 / 91.5, the rest unchanged; 0.1–0.3 all gain (docs/decisions.md).
 */
export const HESITANT_SPACE = 0.15;
/**
 * The bar on a photo's Latin lines (`recognize-text.ts`; Chinese has no spaces), where two sign words
 * still read as one at 0.15. Spotting F1, tune / check: ocr-dev's photos 68.9 / 63.3 → 68.4 / 65.5, 100
 * unseen ICDAR 2015 photos 61.3 / 69.3 → 62.7 / 73.0; from 0.03 to 0.005 is a plateau, 0.001 loses
 * (docs/decisions.md, "A photo's hesitant spaces at a lower bar").
 */
export const PHOTO_HESITANT_SPACE = 0.015;

const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const NUMBER_SEPARATOR = /^[.,:]$/;
const DIGIT = /\p{N}/u;

/** The space's probability, after the top classes' probabilities and indices. */
const SPACE_COLUMN = 2 * TOP_CLASSES;

/**
 * Greedy CTC decoding (Graves et al. 2006): best class per timestep, repeats merged, blanks (class
 * 0) dropped, except a blank where the space was nearly as likely (`HESITANT_SPACE`). Each character
 * keeps the timesteps it was emitted at: its position along the line is the centre of that run, and
 * its extent reaches halfway to its neighbours (CTC peaks are narrow and sit inside glyphs, so the
 * midpoint between peaks is the best boundary estimate we have). Each character also keeps its
 * likeliest other letter or digit where it peaked (`RecognizedChar.alternative`).
 *
 * @param top per timestep, `OUTPUT_COLUMNS` values: the top classes' probabilities, their indices,
 *   then the space's probability (what the recognizer outputs after `top-class-output.ts`;
 *   `bestClasses` makes them from a full softmax). The space is the dictionary's last entry.
 * @param contentFraction the share of the tensor width covered by the line (the rest is padding);
 *   positions are returned as fractions of the line itself.
 * @param hesitantSpace the space's probability at a blank timestep that makes it a space.
 */
export function ctcDecode(
  top: Float32Array,
  timesteps: number,
  dictionary: readonly string[],
  contentFraction = 1,
  hesitantSpace = HESITANT_SPACE,
): CtcReading {
  const space = dictionary[dictionary.length - 1] === ' ' ? dictionary.length - 1 : -1;
  const runs: Run[] = [];
  let previous = 0;
  for (let t = 0; t < timesteps; t++) {
    const row = t * OUTPUT_COLUMNS;
    let prob = top[row],
      index = top[row + TOP_CLASSES];
    const hesitant = index === 0 && space > 0 && top[row + SPACE_COLUMN] >= hesitantSpace;
    if (hesitant) [index, prob] = [space, top[row + SPACE_COLUMN]];
    if (index !== 0 && index === previous) {
      const run = runs[runs.length - 1];
      run.end = t;
      if (prob > run.prob) [run.prob, run.peak] = [prob, t];
      run.hesitant &&= hesitant;
    } else if (index !== 0) {
      runs.push({ index, start: t, end: t, prob, peak: t, hesitant });
    }
    previous = index;
  }
  const text = (i: number) => dictionary[runs[i]?.index] ?? '';
  // A hesitant space only goes between words: not before punctuation ("TOTAL :"), not inside a number ("2, 000").
  const insideNumber = (i: number) => NUMBER_SEPARATOR.test(text(i - 1)) && DIGIT.test(text(i - 2)) && DIGIT.test(text(i + 1));
  const read = runs.filter((r, i) => !r.hesitant || (WORD_CHARACTER.test(text(i + 1)) && !insideNumber(i)));
  // Spaces only separate words: none at the ends, never two in a row.
  const kept = read.filter((r, i, all) => dictionary[r.index] !== ' ' || (i > 0 && dictionary[all[i - 1].index] !== ' '));
  while (kept.length > 0 && dictionary[kept[kept.length - 1].index] === ' ') kept.pop();
  while (kept.length > 0 && dictionary[kept[0].index] === ' ') kept.shift();
  if (kept.length === 0) return { text: '', confidence: 0, chars: [], centres: [] };

  const scale = 1 / (timesteps * Math.max(1e-6, contentFraction));
  const centres = kept.map((r) => ((r.start + r.end + 1) / 2) * scale);
  const gaps = centres
    .slice(1)
    .map((c, i) => c - centres[i])
    .sort((a, b) => a - b);
  const pitch = gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)] : 1;
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const chars = kept.map((r, i): RecognizedChar => {
    const alternative = r.index === space ? undefined : alternativeAt(top, r.peak, r.index, dictionary);
    const spaceBefore = i > 0 && space > 0 ? spaceBetween(top, kept[i - 1].end, r.start) : undefined;
    return {
      text: dictionary[r.index],
      x0: clamp(i === 0 ? centres[0] - pitch / 2 : (centres[i - 1] + centres[i]) / 2),
      x1: clamp(i === kept.length - 1 ? centres[i] + pitch / 2 : (centres[i] + centres[i + 1]) / 2),
      confidence: r.prob,
      ...(alternative && { alternative }),
      ...(spaceBefore !== undefined && { spaceBefore }),
    };
  });
  const confidence = chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length;
  return { text: chars.map((c) => c.text).join(''), confidence, chars, centres };
}

/** The space's highest probability over timesteps `from`..`to` (the ends are the neighbours' own timesteps). */
function spaceBetween(top: Float32Array, from: number, to: number): number {
  let most = 0;
  for (let t = from; t <= to; t++) most = Math.max(most, top[t * OUTPUT_COLUMNS + SPACE_COLUMN]);
  return most;
}

/** The likeliest runner-up at timestep `t` that is a letter or digit other than the character read there. */
function alternativeAt(top: Float32Array, t: number, read: number, dictionary: readonly string[]): RecognizedChar['alternative'] {
  const row = t * OUTPUT_COLUMNS;
  for (let k = 1; k < TOP_CLASSES; k++) {
    const index = top[row + TOP_CLASSES + k];
    const text = dictionary[index];
    if (index !== read && text !== undefined && WORD_CHARACTER.test(text)) return { text, confidence: top[row + k] };
  }
  return undefined;
}

/**
 * What `ctcDecode` reads (`OUTPUT_COLUMNS` per timestep) from a full `timesteps × classes` softmax whose
 * last class is the space: the `TOP_CLASSES` likeliest classes by probability (the first of equal values
 * first, as in onnxruntime's TopK), their indices, the space's probability.
 */
export function bestClasses(probs: Float32Array, timesteps: number, classes: number): Float32Array {
  const out = new Float32Array(OUTPUT_COLUMNS * timesteps);
  const order = Array.from({ length: classes }, (_, c) => c);
  for (let t = 0; t < timesteps; t++) {
    const row = t * classes;
    const at = t * OUTPUT_COLUMNS;
    const top = [...order].sort((a, b) => probs[row + b] - probs[row + a] || a - b).slice(0, TOP_CLASSES);
    top.forEach((c, k) => {
      out[at + k] = probs[row + c];
      out[at + TOP_CLASSES + k] = c;
    });
    out[at + SPACE_COLUMN] = probs[row + classes - 1];
  }
  return out;
}
