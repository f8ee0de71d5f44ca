import type { RecognizedChar } from '../recognize/recognized-line.ts';
import { LATIN_LETTERS, type EnglishLexicon } from './english-lexicon.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { wordRuns } from './word-runs.ts';
import { withChars } from './reading-chars.ts';

/** Words PP-OCRv4 most often runs together with their neighbour, short enough to need a list of their own. */
const SHORT_WORDS = new Set([
  'a',
  'an',
  'as',
  'at',
  'be',
  'by',
  'do',
  'go',
  'if',
  'in',
  'is',
  'it',
  'my',
  'no',
  'of',
  'on',
  'or',
  'so',
  'to',
  'up',
  'us',
  'we',
]);
/** Shorter runs are too often abbreviations and codes ("ITEMNO", "QTY") to second-guess. */
const MIN_JOINED_LENGTH = 7;
const MIN_PART = 3;

function isWord(part: string, lexicon: EnglishLexicon): boolean {
  return part.length >= MIN_PART ? lexicon.common.has(part) : SHORT_WORDS.has(part);
}

/** Where to cut an unknown run of letters into two known words, or undefined when there is not exactly one such cut. */
export function joinedWordCut(word: string, lexicon: EnglishLexicon): number | undefined {
  const lower = word.toLowerCase();
  if (word.length < MIN_JOINED_LENGTH || !LATIN_LETTERS.test(word) || lexicon.known.has(lower)) return undefined;
  // Capitalised or mixed-case runs are mostly names ("Newport", "Dataran", "iPhone"), not two words.
  if (word !== word.toUpperCase() && word !== lower) return undefined;
  const cuts: number[] = [];
  for (let i = 2; i <= lower.length - 2; i++) if (isWord(lower.slice(0, i), lexicon) && isWord(lower.slice(i), lexicon)) cuts.push(i);
  return cuts.length === 1 ? cuts[0] : undefined;
}

/**
 * PP-OCRv4's Chinese recognizer drops the space between Latin words set close together
 * ("KEEPTHIS", "STATIONERYSHOP"), and when neither the CTC timing nor the ink shows the gap
 * (`word-gaps.ts`), only the words themselves can: a run of letters that is not an English word but
 * is exactly one way two of them, gets a space at that cut. Positions stay those of the characters.
 *
 * @example splitJoinedWords(reading, lexicon).text // "KEEP THIS RECEIPT"
 */
export function splitJoinedWords(reading: LineReading, lexicon: EnglishLexicon): LineReading {
  const chars = reading.chars;
  if (chars.length < MIN_JOINED_LENGTH) return reading;
  // Index of the character each inserted space goes before.
  const spaces = new Map<number, RecognizedChar>();
  for (const { start, end } of wordRuns(chars.map((c) => c.text))) {
    const run = chars.slice(start, end);
    const cut = joinedWordCut(run.map((c) => c.text).join(''), lexicon);
    if (cut === undefined || !run.every((c) => [...c.text].length === 1)) continue;
    const at = (run[cut - 1].x1 + run[cut].x0) / 2;
    spaces.set(start + cut, { text: ' ', x0: at, x1: at, confidence: Math.min(run[cut - 1].confidence, run[cut].confidence) });
  }
  if (spaces.size === 0) return reading;
  return withChars(
    reading,
    chars.flatMap((c, i) => (spaces.has(i) ? [spaces.get(i)!, c] : [c])),
  );
}
