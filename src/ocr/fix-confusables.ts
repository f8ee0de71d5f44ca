import type { LineReading } from './recognizer.ts';
import { wordRuns } from './word-runs.ts';
import { withChars, withCharTexts } from './reading-chars.ts';

const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
const UPPER = /[A-Z]/;

/**
 * PP-OCRv4's dictionary is mostly Chinese, and on Latin receipts and forms it often reads O as 0
 * and l as 1 inside words ("FL0OR", "TOTA1", "BI11") and the reverse inside numbers ("4600o").
 * Within one word, a 0/1 touching a letter in a word of letters becomes O/L, and o/O in a number
 * becomes 0. Case follows the neighbouring letters. Mixed codes ("SB01", "A1", "22A-1") keep their
 * digits: the rule needs at least twice as many letters as digits, and a digit run of one.
 */
function fixWord(chars: string[]): string[] {
  // A plate's letters and digits are what they are read as (`chinesePlates` made its I and O digits).
  if (isPlate(chars)) return chars;
  const letters = chars.filter((c) => LETTER.test(c)).length;
  const digits = chars.filter((c) => DIGIT.test(c)).length;
  if (letters >= 3 && digits > 0 && letters >= 2 * digits) {
    return chars.map((c, i) => {
      if (c !== '0' && c !== '1') return c;
      const prev = chars[i - 1] ?? '', next = chars[i + 1] ?? '';
      if (DIGIT.test(prev) && !'01'.includes(prev)) return c;
      if (DIGIT.test(next) && !'01'.includes(next)) return c;
      const neighbour = [prev, next, chars[i - 2] ?? '', chars[i + 2] ?? ''].find((n) => LETTER.test(n));
      if (!neighbour) return c;
      const upper = UPPER.test(neighbour);
      if (c === '0') return upper ? 'O' : 'o';
      return upper ? 'L' : 'l';
    });
  }
  if (digits >= 2 && chars.every((c) => DIGIT.test(c) || c === 'o' || c === 'O' || !LETTER.test(c))) {
    return chars.map((c) => (c === 'o' || c === 'O' ? '0' : c));
  }
  return chars;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const FULL_WIDTH = /[\uFF01-\uFF5E\u3001\u3002]/u;

/**
 * The Chinese dictionary has full-width punctuation ("（RM)", "，", "："), which in a line without
 * CJK characters is the ASCII one (U+FF01–FF5E are ASCII + 0xFEE0; "、" and "。" become "," and ".").
 */
export function asciiPunctuation(reading: LineReading): LineReading {
  if (!FULL_WIDTH.test(reading.text) || CJK.test(reading.text)) return reading;
  const ascii = (t: string) => (t === '\u3001' ? ',' : t === '\u3002' ? '.' : t.replace(/[\uFF01-\uFF5E]/gu, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)));
  const chars = reading.chars.map((c) => (FULL_WIDTH.test(c.text) ? { ...c, text: ascii(c.text) } : c));
  return { ...reading, text: chars.length ? chars.map((c) => c.text).join('') : ascii(reading.text), chars };
}

/** Greek and Cyrillic capitals (and Cyrillic small letters) drawn like Latin ones. */
const LOOKALIKE: Record<string, string> = {
  Α: 'A', Λ: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x',
};
const GREEK_CYRILLIC = /[\p{Script=Greek}\p{Script=Cyrillic}]/u;

/**
 * The Chinese dictionary has a few Greek and Cyrillic letters, which PP-OCRv4 reads for Latin
 * capitals on blurred signs ("ΛMSUNG"). In a word that is otherwise Latin, a look-alike becomes its
 * Latin letter; Greek or Cyrillic words (two or more such letters, or none Latin) stay as read.
 */
export function latinLookalikes(reading: LineReading): LineReading {
  if (!GREEK_CYRILLIC.test(reading.text) || reading.chars.length === 0) return reading;
  const texts = reading.chars.map((c) => c.text);
  const fixed = [...texts];
  for (const { start, end } of wordRuns(texts)) {
    const word = texts.slice(start, end);
    const foreign = word.filter((t) => GREEK_CYRILLIC.test(t)).length;
    const latin = word.filter((t) => LETTER.test(t)).length;
    if (foreign === 1 && latin >= 2) word.forEach((t, k) => (fixed[start + k] = LOOKALIKE[t] ?? t));
  }
  return withCharTexts(reading, fixed);
}

/**
 * A Chinese licence plate: province character, letter, the printed separator dot, then 5 letters and
 * digits (6 on new-energy plates). Registration numbers are written without the dot (CCPD's labels,
 * vehicle records), and that is what users search for, so the dot goes. Plates mix letters and
 * digits freely, so the word rule below (a 1 between letters is an L) must not touch them.
 */
const PLATE = /^\p{Script=Han}[A-Z][·•.．\-－]?[A-Z0-9]{5,6}$/u;
const SEPARATOR = /^[·•.．\-－]$/u;
/** Plates never use the letters I and O after the issuing letter (GA 36): there they are 1 and 0. */
const PLATE_DIGIT: Record<string, string> = { O: '0', I: '1' };

function isPlate(word: readonly string[]): boolean {
  return PLATE.test(word.join(''));
}

export function chinesePlates(reading: LineReading): LineReading {
  const texts = reading.chars.map((c) => c.text);
  const plates = wordRuns(texts).filter(({ start, end }) => isPlate(texts.slice(start, end)));
  if (plates.length === 0) return reading;
  const fixed = [...texts];
  const drop = new Set<number>();
  for (const { start, end } of plates) {
    if (SEPARATOR.test(texts[start + 2])) drop.add(start + 2);
    for (let i = start + 2; i < end; i++) fixed[i] = PLATE_DIGIT[texts[i]] ?? texts[i];
  }
  return withChars(reading, withCharTexts(reading, fixed).chars.filter((_, i) => !drop.has(i)));
}

/**
 * Forms print their fields on rules ("Name ______"), and PP-OCRv4 reads the rule under a gap
 * between words as `_`: "notations_were", "york,_ny". Underscores inside a word (text on both
 * sides) become one space, as a reader (and Google Vision) sees the words; leading and trailing
 * ones (an empty field) stay. The cost: snake_case identifiers in screenshots lose their `_`.
 */
export function underlinesAsSpaces(reading: LineReading): LineReading {
  if (!reading.text.includes('_')) return reading;
  const texts = reading.chars.map((c) => c.text);
  const space = new Set<number>();
  const drop = new Set<number>();
  for (const { start, end } of wordRuns(texts)) {
    for (let i = start + 1; i < end - 1; i++) {
      if (texts[i] !== '_' || texts[i - 1] === '_') continue;
      let j = i;
      while (j < end && texts[j] === '_') j++;
      if (j === end) break;
      space.add(i);
      for (let k = i + 1; k < j; k++) drop.add(k);
    }
  }
  if (space.size === 0) return reading;
  return withChars(reading, reading.chars.flatMap((c, i) => (drop.has(i) ? [] : space.has(i) ? [{ ...c, text: ' ' }] : [c])));
}

/**
 * The reading with confusable characters fixed per word, Greek/Cyrillic look-alikes in Latin words
 * made Latin, full-width punctuation in Latin lines made ASCII, Chinese plates written as registered and
 * form rules between words read as spaces; other characters keep their positions and confidences.
 */
export function fixConfusables(input: LineReading): LineReading {
  return digitsInWords(underlinesAsSpaces(chinesePlates(latinLookalikes(asciiPunctuation(input)))));
}

/** `fixWord` on every word of the line: 0/1 among letters read as O/l, o/O among digits as 0. */
export function digitsInWords(reading: LineReading): LineReading {
  const texts = reading.chars.map((c) => c.text);
  if (!texts.some((t) => t === '0' || t === '1' || t === 'o' || t === 'O')) return reading;
  const fixed = [...texts];
  for (const { start, end } of wordRuns(texts)) fixWord(texts.slice(start, end)).forEach((t, k) => (fixed[start + k] = t));
  return withCharTexts(reading, fixed);
}
