import { findLanguage } from '../recognize/languages.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { withCharTexts } from './reading-chars.ts';

const ARABIC_COMMA = '،';
const ARABIC_SEMICOLON = '؛';
const OPEN_QUOTE = '«';
const CLOSE_QUOTE = '»';
const HAMZA = 'ء';
/** Letters no Arabic word ends in before a hamza (ha, ta marbuta): a hamza after one, at a word's end, is a comma. */
const NO_HAMZA_AFTER = new Set(['ه', 'ة']);

/**
 * Tesseract's Arabic model (`ara`, tessdata_best) has no Arabic comma (U+060C) among its classes, the
 * most frequent mark in Arabic prose, so it reads each one as a mark it has (tesseract-ocr/tesseract#1217,
 * #2047): on ocr-dev's Arabic lines each of the 36 commas came back as the Arabic semicolon, a closing
 * guillemet, a word-final hamza or nothing, and no line holds a true semicolon. A line read by that model
 * gets its commas back where the mark can mean nothing else: every `؛`, every `»` that closes no `«`
 * before it on the line, and a hamza ending a word after ha or ta marbuta (elsewhere a final hamza is
 * often a letter: شيء, جزء). A real semicolon becomes a comma: it is the rarer mark by far, and the
 * model cannot tell them apart.
 */
export function arabicCommas(reading: LineReading): LineReading {
  if (reading.language === undefined || findLanguage(reading.language)?.traineddata !== 'ara') return reading;
  if (![ARABIC_SEMICOLON, CLOSE_QUOTE, HAMZA].some((mark) => reading.text.includes(mark))) return reading;
  // Code points in reading order, each with the character (symbol) it belongs to.
  const units = reading.chars.flatMap((c, i) => [...c.text].map((text) => ({ text, char: i })));
  let open = 0;
  units.forEach((u, k) => {
    if (u.text === OPEN_QUOTE) open++;
    else if (u.text === CLOSE_QUOTE && open > 0) open--;
    else if (u.text === CLOSE_QUOTE || u.text === ARABIC_SEMICOLON) u.text = ARABIC_COMMA;
    else if (u.text === HAMZA && NO_HAMZA_AFTER.has(units[k - 1]?.text ?? '') && (units[k + 1]?.text ?? ' ').trim() === '')
      u.text = ARABIC_COMMA;
  });
  const texts = reading.chars.map(() => '');
  for (const u of units) texts[u.char] += u.text;
  return withCharTexts(reading, texts);
}
