import { hasOneWordCase, LATIN_LETTERS, type EnglishLexicon } from './english-lexicon.ts';
import type { RecognizedChar } from '../recognize/recognized-line.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { wordRuns } from './word-runs.ts';
import { withChars } from './reading-chars.ts';

/** One-letter English words; every other single letter is a piece of something. */
const ONE_LETTER_WORDS = new Set(['a', 'i']);
/** Most pieces one word is rebuilt from ("r e imbur sement" → "reimbursement"). */
const MAX_PIECES = 4;
/** Merges shorter than this must give a common word ("u nit" → "unit"), not just a known one ("s r" → "sr"). */
const SHORT_MERGE = 5;
/** Short words a misplaced space most often leaves in pieces, too short for the common-word list to vouch for. */
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
/** Marks before a word's first letter or after its last (brackets, quotes, a colon). */
const LEADING_MARKS = /^[^\p{L}\p{N}]+/u;
const TRAILING_MARKS = /[^\p{L}\p{N}]+$/u;
/** A cut leaves no part shorter than this unless it is one of `SHORT_WORDS`. */
const MIN_PART = 3;
/** Shorter runs are too often abbreviations and codes ("ITEMNO", "SKU") to second-guess. */
const MIN_TWO_WORDS = 7;

function isPart(part: string, lexicon: EnglishLexicon): boolean {
  return part.length >= MIN_PART ? lexicon.common.has(part) : SHORT_WORDS.has(part);
}

/** Where to cut a run of letters that is no English word into two common ones, or undefined unless exactly one cut does. */
export function twoWordCut(word: string, lexicon: EnglishLexicon): number | undefined {
  const lower = word.toLowerCase();
  // Capitalised or mixed-case runs are mostly names ("Oakridge", "iPhone"), not two words.
  if (word.length < MIN_TWO_WORDS || (word !== word.toUpperCase() && word !== lower) || lexicon.known.has(lower)) return undefined;
  const cuts: number[] = [];
  for (let i = 2; i <= lower.length - 2; i++) if (isPart(lower.slice(0, i), lexicon) && isPart(lower.slice(i), lexicon)) cuts.push(i);
  return cuts.length === 1 ? cuts[0] : undefined;
}

function isWordOnItsOwn(piece: string, lexicon: EnglishLexicon): boolean {
  return piece.length === 1 ? ONE_LETTER_WORDS.has(piece) : lexicon.known.has(piece);
}

/** Pieces to join into one word, and where a misplaced space goes back (`cut`, in the joined pieces' characters). */
export interface PieceJoin {
  pieces: number;
  cut?: number;
}

/**
 * How many pieces, starting with the first, form one English word that a space wrongly split:
 * their concatenation is a word, or exactly one cut makes it two (`twoWordCut`: the space was
 * misplaced), at least one piece is not a word on its own, and the case is that of one word.
 * `pieces` is 1 when nothing should be joined.
 */
export function piecesOfOneWord(pieces: readonly string[], lexicon: EnglishLexicon): PieceJoin {
  for (let k = Math.min(MAX_PIECES, pieces.length); k >= 2; k--) {
    // Punctuation before the first piece or after the last is no part of the word ("(Deliv ery extra)").
    const lead = LEADING_MARKS.exec(pieces[0])?.[0].length ?? 0;
    const trail = TRAILING_MARKS.exec(pieces[k - 1])?.[0].length ?? 0;
    const part = pieces.slice(0, k).map((p, i) => p.slice(i === 0 ? lead : 0, i === k - 1 ? p.length - trail : p.length));
    const word = part.join('');
    const lower = word.toLowerCase();
    if (!part.every((p) => LATIN_LETTERS.test(p)) || !hasOneWordCase(word)) continue;
    if (part.every((p) => isWordOnItsOwn(p.toLowerCase(), lexicon))) continue;
    if (lower.length < SHORT_MERGE ? lexicon.common.has(lower) : lexicon.known.has(lower)) return { pieces: k };
    // Two words with the space in the wrong place ("pape rc up" → "paper cup"). A cut where a space
    // already is ("p lease sign") is no misplaced space.
    const cut = twoWordCut(word, lexicon);
    const boundaries = part.slice(0, -1).map((_, i) => part.slice(0, i + 1).join('').length);
    if (cut !== undefined && !boundaries.includes(cut)) return { pieces: k, cut: lead + cut };
  }
  return { pieces: 1 };
}

/**
 * Ink-measured word gaps (`word-gaps.ts`) split words where letter-spaced print leaves a wide blank
 * inside them: the cells of narrow letters in monospace and dot-matrix receipts ("marmal ade",
 * "p lease", "discoun t", "r e imbur sement"). Neighbouring pieces that together make an English
 * word, when at least one of them is no word on its own, are joined again ("SALE PRICE" and
 * "car pet" stay: every piece is a word); pieces of two words with the space misplaced ("pape rc
 * up") get one space, where it belongs ("paper cup"). Character positions are kept; only spaces move.
 *
 * @example joinSplitWords(reading, lexicon).text // "marmalade toast" for "marmal ade toast"
 */
export function joinSplitWords(reading: LineReading, lexicon: EnglishLexicon): LineReading {
  const chars = reading.chars;
  const runs = wordRuns(chars.map((c) => c.text));
  if (runs.length < 2) return reading;
  const texts = runs.map(({ start, end }) =>
    chars
      .slice(start, end)
      .map((c) => c.text)
      .join(''),
  );
  // Indices of the characters (the spaces between joined pieces) to drop, and of those a moved space goes before.
  const drop = new Set<number>();
  const spaceBefore = new Set<number>();
  for (let i = 0; i < runs.length; ) {
    const { pieces, cut } = piecesOfOneWord(texts.slice(i, i + MAX_PIECES), lexicon);
    for (let j = i + 1; j < i + pieces; j++) for (let c = runs[j - 1].end; c < runs[j].start; c++) drop.add(c);
    if (cut !== undefined) spaceBefore.add(letterIndex(chars, runs.slice(i, i + pieces), cut));
    i += pieces;
  }
  if (drop.size === 0) return reading;
  const kept: RecognizedChar[] = [];
  chars.forEach((c, i) => {
    if (drop.has(i)) return;
    const before = kept.at(-1);
    if (spaceBefore.has(i) && before) {
      const at = (before.x1 + c.x0) / 2;
      kept.push({ text: ' ', x0: at, x1: at, confidence: Math.min(before.confidence, c.confidence) });
    }
    kept.push(c);
  });
  return withChars(reading, kept);
}

/** The index in `chars` of the character holding position `n` of the word the runs spell together. */
function letterIndex(chars: readonly RecognizedChar[], runs: ReadonlyArray<{ start: number; end: number }>, n: number): number {
  let left = n;
  for (const { start, end } of runs)
    for (let i = start; i < end; i++) {
      if (left < chars[i].text.length) return i;
      left -= chars[i].text.length;
    }
  return runs.at(-1)?.end ?? 0;
}
