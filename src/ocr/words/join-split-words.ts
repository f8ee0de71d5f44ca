import { hasOneWordCase, LATIN_LETTERS, type EnglishLexicon } from './english-lexicon.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { joinedWordCut } from './split-joined-words.ts';
import { wordRuns } from './word-runs.ts';
import { withChars } from './reading-chars.ts';

/** One-letter English words; every other single letter is a piece of something. */
const ONE_LETTER_WORDS = new Set(['a', 'i']);
/** Most pieces one word is rebuilt from ("a d jus tment" → "adjustment"). */
const MAX_PIECES = 4;
/** Merges shorter than this must give a common word ("l ot" → "lot"), not just a known one ("s r" → "sr"). */
const SHORT_MERGE = 5;

function isWordOnItsOwn(piece: string, lexicon: EnglishLexicon): boolean {
  return piece.length === 1 ? ONE_LETTER_WORDS.has(piece) : lexicon.known.has(piece);
}

/**
 * How many pieces, starting with the first, form one English word that a space wrongly split:
 * their concatenation is a word (or exactly one cut makes it two, `joinedWordCut`), at least one
 * piece is not a word on its own, and the case is that of one word. 1 when nothing should be joined.
 */
export function piecesOfOneWord(pieces: readonly string[], lexicon: EnglishLexicon): number {
  for (let k = Math.min(MAX_PIECES, pieces.length); k >= 2; k--) {
    const part = pieces.slice(0, k);
    const word = part.join('');
    const lower = word.toLowerCase();
    if (!part.every((p) => LATIN_LETTERS.test(p)) || !hasOneWordCase(word)) continue;
    const isWord = lower.length < SHORT_MERGE ? lexicon.common.has(lower) : lexicon.known.has(lower);
    if (!isWord) {
      // Or two words with the space in the wrong place ("inpu tt ax"): joined here, cut again by
      // `splitJoinedWords`. A cut where a space already is ("r equired to") is no misplaced space.
      const cut = joinedWordCut(word, lexicon);
      const boundaries = part.slice(0, -1).map((_, i) => part.slice(0, i + 1).join('').length);
      if (cut === undefined || boundaries.includes(cut)) continue;
    }
    if (part.every((p) => isWordOnItsOwn(p.toLowerCase(), lexicon))) continue;
    return k;
  }
  return 1;
}

/**
 * Ink-measured word gaps (`word-gaps.ts`) split words where letter-spaced print leaves a wide blank
 * inside them: the cells of narrow letters in monospace and dot-matrix receipts ("whol emeal",
 * "r equired", "restauran t", "a d jus tment"). Neighbouring pieces that together make an English
 * word, when at least one of them is no word on its own, are joined again ("TAX INVOICE" and
 * "in voice" stay: every piece is a word); pieces of two words with the space misplaced ("inpu tt
 * ax") are joined for `splitJoinedWords` to cut where it belongs. Character positions are kept;
 * only spaces go.
 *
 * @example joinSplitWords(reading, lexicon).text // "wholemeal bread" for "whol emeal bread"
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
  // Indices of the characters (the spaces between joined pieces) to drop.
  const drop = new Set<number>();
  for (let i = 0; i < runs.length; ) {
    const k = piecesOfOneWord(texts.slice(i, i + MAX_PIECES), lexicon);
    for (let j = i + 1; j < i + k; j++) for (let c = runs[j - 1].end; c < runs[j].start; c++) drop.add(c);
    i += k;
  }
  return drop.size === 0
    ? reading
    : withChars(
        reading,
        chars.filter((_, i) => !drop.has(i)),
      );
}
