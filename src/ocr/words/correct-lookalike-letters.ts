import { hasOneWordCase, LATIN_LETTERS, type EnglishLexicon } from './english-lexicon.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { wordRuns } from './word-runs.ts';
import { withCharTexts } from './reading-chars.ts';

/**
 * Letters PP-OCRv4 misreads in worn or light print: an i whose dot is lost reads as l, an e whose
 * bar has faded as o, an m that lost a leg as n or h. Only that direction: swapping the other way
 * too turned names and foreign words into English ones ("MENTAI" → "MENTAL", "Sep" → "Sop" on
 * ocr-dev). Case is kept.
 */
const SWAPS: Record<string, string> = { l: 'i', o: 'e', L: 'I', O: 'E', n: 'm', h: 'm', N: 'M', H: 'M' };
/** Shorter words are too often names and abbreviations one swap from a word ("Mon" → "Men", "KOOL" → "KEEL"). */
const MIN_LENGTH = 6;
/** Longer runs are no word (and their variants grow with the square of the length). */
const MAX_LENGTH = 30;
/** At most this many letters of one word are changed. */
const MAX_SWAPS = 2;

/** Spellings of `word` with up to `MAX_SWAPS` look-alike letters swapped (not `word` itself). */
function variants(word: string): string[] {
  const positions = [...word].flatMap((c, i) => (c in SWAPS ? [i] : []));
  const out: string[] = [];
  const swap = (w: string, i: number) => w.slice(0, i) + SWAPS[w[i]] + w.slice(i + 1);
  positions.forEach((p, a) => {
    const once = swap(word, p);
    out.push(once);
    if (MAX_SWAPS > 1) for (const q of positions.slice(a + 1)) out.push(swap(once, q));
  });
  return out;
}

/**
 * The English word an unknown run of letters was meant to be, when one or two misread letters
 * (l for i, o for e, n or h for m) put back give exactly one common word: "converslon" →
 * "conversion", "resoarch" → "research", "AHOUNT" → "AMOUNT". Known words (names included), mixed
 * case, short runs and anything ambiguous are left as read.
 */
export function correctLookalikeWord(word: string, lexicon: EnglishLexicon): string {
  const lower = word.toLowerCase();
  if (
    word.length < MIN_LENGTH ||
    word.length > MAX_LENGTH ||
    !LATIN_LETTERS.test(word) ||
    !hasOneWordCase(word) ||
    lexicon.known.has(lower)
  )
    return word;
  const found = [...new Set(variants(word))].filter((v) => lexicon.common.has(v.toLowerCase()));
  return found.length === 1 ? found[0] : word;
}

/**
 * The reading with each word that is no English word, but one or two misread letters away from
 * exactly one common word, spelled as that word (`correctLookalikeWord`). Character positions and
 * confidences stay; only the swapped characters' text changes.
 *
 * @example correctLookalikeLetters(reading, lexicon).text // "market research" for "markot resoarch"
 */
export function correctLookalikeLetters(reading: LineReading, lexicon: EnglishLexicon): LineReading {
  const texts = reading.chars.map((c) => c.text);
  const fixed = [...texts];
  for (const { start, end } of wordRuns(texts)) {
    const piece = texts.slice(start, end);
    if (piece.some((t) => [...t].length !== 1)) continue;
    // Punctuation around it ("markoting," "(resoarch)") is not part of the word.
    let first = start,
      last = end;
    while (first < last && !LATIN_LETTERS.test(texts[first])) first++;
    while (last > first && !LATIN_LETTERS.test(texts[last - 1])) last--;
    const word = texts.slice(first, last).join('');
    const corrected = correctLookalikeWord(word, lexicon);
    if (corrected !== word) [...corrected].forEach((c, k) => (fixed[first + k] = c));
  }
  return withCharTexts(reading, fixed);
}
