import type { LineReading } from '../recognize/recognizer.ts';
import { wordRuns } from './word-runs.ts';
import { withChars, withCharTexts } from './reading-chars.ts';

const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
const UPPER = /[A-Z]/;

/**
 * PP-OCRv4's dictionary is mostly Chinese, and on Latin receipts and forms it often reads O as 0
 * and l as 1 inside words ("SH0P", "TOTA1", "BI11") and the reverse inside numbers ("5800o").
 * Within one word, a 0/1 touching a letter in a word of letters becomes O/L, and o/O in a number
 * becomes 0. Case follows the neighbouring letters. Mixed codes ("KW01", "A1", "31B-4") keep their
 * digits: the rule needs at least twice as many letters as digits, and a digit run of one.
 */
function fixWord(chars: string[]): string[] {
  // A plate's letters and digits are what they are read as.
  if (isPlate(chars)) return chars;
  const letters = chars.filter((c) => LETTER.test(c)).length;
  const digits = chars.filter((c) => DIGIT.test(c)).length;
  if (letters >= 3 && digits > 0 && letters >= 2 * digits) {
    return chars.map((c, i) => {
      if (c !== '0' && c !== '1') return c;
      const prev = chars[i - 1] ?? '',
        next = chars[i + 1] ?? '';
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

/**
 * A Chinese licence plate: province character, letter, the printed separator dot, then 5 letters and
 * digits (6 on new-energy plates). Plates mix letters and digits freely, so the word rule (a 1
 * between letters is an L) must not touch them.
 */
const PLATE = /^\p{Script=Han}[A-Z][·•.．\-－]?[A-Z0-9]{5,6}$/u;

function isPlate(word: readonly string[]): boolean {
  return PLATE.test(word.join(''));
}

/**
 * Forms print their fields on rules ("Name ______"), and PP-OCRv4 reads the rule under a gap
 * between words as `_`: "notations_were", "millbrook,_vt". Underscores inside a word (text on both
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
  return withChars(
    reading,
    reading.chars.flatMap((c, i) => (drop.has(i) ? [] : space.has(i) ? [{ ...c, text: ' ' }] : [c])),
  );
}

/**
 * Form rules between words read as spaces, then 0/1 and o/O fixed per word; other characters keep
 * their positions and confidences (the text-fix stage runs the two as separate fixes).
 */
export function fixConfusables(input: LineReading): LineReading {
  return digitsInWords(underlinesAsSpaces(input));
}

/** `fixWord` on every word of the line: 0/1 among letters read as O/l, o/O among digits as 0. */
export function digitsInWords(reading: LineReading): LineReading {
  const texts = reading.chars.map((c) => c.text);
  if (!texts.some((t) => t === '0' || t === '1' || t === 'o' || t === 'O')) return reading;
  const fixed = [...texts];
  for (const { start, end } of wordRuns(texts)) fixWord(texts.slice(start, end)).forEach((t, k) => (fixed[start + k] = t));
  return withCharTexts(reading, fixed);
}
