import { hasOneWordCase, LATIN_LETTERS, type EnglishLexicon } from './english-lexicon.ts';
import type { RecognizedChar } from '../recognize/recognized-line.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { wordRuns } from './word-runs.ts';
import { withCharTexts } from './reading-chars.ts';

/**
 * Letters PP-OCRv4 misreads in worn or light print: an i whose dot is lost reads as l, an e whose
 * bar has faded as o, an m that lost a leg as n or h. Only that direction: swapping the other way
 * too turned names and foreign words into English ones on ocr-dev (as it would "DENTAI" → "DENTAL",
 * "Ned" → "Nod"). Case is kept.
 */
const SWAPS: Record<string, string> = { l: 'i', o: 'e', L: 'I', O: 'E', n: 'm', h: 'm', N: 'M', H: 'M' };
/** Shorter words are too often names and abbreviations one swap from a word ("Hon" → "Hen", "GROOT" → "GREET"). */
const MIN_LENGTH = 6;
/** Longer runs are no word (and their variants grow with the square of the length). */
const MAX_LENGTH = 30;
/** At most this many letters of one word are changed. */
const MAX_SWAPS = 2;
/**
 * Typeset print joins f with the next letter in one glyph (ﬁ ﬂ ﬀ ﬃ ﬄ), which PP-OCRv4 reads as a
 * lone f ("efcient", "fnal", "benefts"). Ligatures are lower-case only, so only a lower-case f
 * is expanded; the expansion stays in the f's character, as the glyph is one symbol on the page.
 */
const LIGATURE_TAILS = ['i', 'l', 'f', 'fi', 'fl'];
/** "fnal", "ofer", "fux": a ligature's word may be short, but three letters are a code more often than a word. */
const LIGATURE_MIN_LENGTH = 4;

/**
 * A letter the recognizer read with another nearly as likely: below this probability its runner-up
 * (`RecognizedChar.alternative`) is no candidate. On ocr-dev (tune / check), 0.02, 0.05 and 0.1 read
 * alike (docs/decisions.md).
 */
const MIN_ALTERNATIVE = 0.05;
/** Words shorter than this take no alternatives: three letters are a code or a name more often than a word. */
const MIN_ALTERNATIVE_LENGTH = 4;

/**
 * The letters each character of a word might have been instead: its fixed look-alike (`SWAPS`, words
 * of `MIN_LENGTH` up) and the recognizer's runner-up there (`MIN_ALTERNATIVE`, words of
 * `MIN_ALTERNATIVE_LENGTH` up), the latter in the case of the letter it replaces ("CONFIRMEO" takes D
 * whichever case the runner-up was).
 */
function candidatesOf(chars: readonly string[], read: readonly RecognizedChar[]): string[][] {
  return chars.map((c, i) => {
    const out: string[] = [];
    if (chars.length >= MIN_LENGTH && c in SWAPS) out.push(SWAPS[c]);
    const alternative = read[i]?.alternative;
    if (chars.length >= MIN_ALTERNATIVE_LENGTH && alternative && alternative.confidence >= MIN_ALTERNATIVE) {
      const text = c === c.toUpperCase() ? alternative.text.toUpperCase() : alternative.text.toLowerCase();
      if (!out.includes(text) && text !== c) out.push(text);
    }
    return out;
  });
}

/** Spellings of `chars` with up to `MAX_SWAPS` letters replaced by one of their candidates (not the word itself). */
function letterVariants(chars: readonly string[], read: readonly RecognizedChar[]): string[][] {
  const candidates = candidatesOf(chars, read);
  const out: string[][] = [];
  const positions = chars.flatMap((_, i) => (candidates[i].length > 0 ? [i] : []));
  positions.forEach((p, a) => {
    for (const first of candidates[p]) {
      const once = chars.map((c, k) => (k === p ? first : c));
      out.push(once);
      if (MAX_SWAPS > 1)
        for (const q of positions.slice(a + 1)) for (const second of candidates[q]) out.push(once.map((c, k) => (k === q ? second : c)));
    }
  });
  return out;
}

/** Spellings of `word` with one lower-case f read for a ligature (`LIGATURE_TAILS`). */
function ligatureVariants(chars: readonly string[]): string[][] {
  if (chars.length < LIGATURE_MIN_LENGTH) return [];
  return chars.flatMap((c, i) => (c === 'f' ? LIGATURE_TAILS.map((tail) => chars.map((d, k) => (k === i ? d + tail : d))) : []));
}

/**
 * The English word an unknown run of letters was meant to be, one text per character read: when
 * one or two misread letters put back (l for i, o for e, n or h for m; or the letter the recognizer
 * itself found nearly as likely, `read[i].alternative`), or one ligature read as f spelled out, give
 * exactly one common word: "revlslon" → "revision", "moeting" → "meeting", "AHOUNT" →
 * "AMOUNT", "CONFIRMEO" → "CONFIRMED" (D the runner-up), "benefts" → "benefits" (the f's
 * character becomes "fi"). Known words (names included), mixed case, short runs and anything
 * ambiguous are left as read.
 */
function correctedChars(chars: readonly string[], lexicon: EnglishLexicon, read: readonly RecognizedChar[] = []): readonly string[] {
  const word = chars.join('');
  if (chars.length > MAX_LENGTH || !LATIN_LETTERS.test(word) || !hasOneWordCase(word) || lexicon.known.has(word.toLowerCase()))
    return chars;
  const found = new Map<string, string[]>();
  for (const v of [...letterVariants(chars, read), ...ligatureVariants(chars)]) {
    const spelled = v.join('');
    if (lexicon.common.has(spelled.toLowerCase())) found.set(spelled, v);
  }
  return found.size === 1 ? [...found.values()][0] : chars;
}

/** `correctedChars` on a word of single letters: the word as it should be spelled. */
export function correctLookalikeWord(word: string, lexicon: EnglishLexicon): string {
  return correctedChars([...word], lexicon).join('');
}

/**
 * The reading with each word that is no English word, but one or two misread letters (look-alikes
 * or the recognizer's runners-up) or one ligature away from exactly one common word, spelled as that
 * word (`correctedChars`). Character positions and confidences stay; only the changed characters'
 * text does.
 *
 * @example correctLookalikeLetters(reading, lexicon).text // "garden meeting" for "gardon moeting"
 */
export function correctLookalikeLetters(reading: LineReading, lexicon: EnglishLexicon): LineReading {
  const texts = reading.chars.map((c) => c.text);
  const fixed = [...texts];
  for (const { start, end } of wordRuns(texts)) {
    const piece = texts.slice(start, end);
    if (piece.some((t) => [...t].length !== 1)) continue;
    // Punctuation around it ("budgot," "(revlslon)") is not part of the word.
    let first = start,
      last = end;
    while (first < last && !LATIN_LETTERS.test(texts[first])) first++;
    while (last > first && !LATIN_LETTERS.test(texts[last - 1])) last--;
    correctedChars(texts.slice(first, last), lexicon, reading.chars.slice(first, last)).forEach((c, k) => (fixed[first + k] = c));
  }
  return withCharTexts(reading, fixed);
}
