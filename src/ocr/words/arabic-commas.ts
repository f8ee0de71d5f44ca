import { findLanguage } from '../recognize/languages.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { withCharTexts } from './reading-chars.ts';

const ARABIC_COMMA = '،';
const ARABIC_SEMICOLON = '؛';
const OPEN_QUOTE = '«';
const CLOSE_QUOTE = '»';

/**
 * Tesseract's Arabic model (`ara`, tessdata_best) has no Arabic comma (U+060C) among its classes, the
 * most frequent mark in Arabic prose, so it reads each one as a mark it has (tesseract-ocr/tesseract#1217,
 * #2047): on ocr-dev's Arabic lines each of the 36 commas came back as the Arabic semicolon, a closing
 * guillemet, a word-final hamza or nothing, and no line holds a true semicolon. A line read by that model
 * gets its commas back where the mark can mean nothing else: every `؛`, and every `»` that closes no `«`
 * before it on the line (a hamza also ends real words: شيء). A real semicolon becomes a comma: it is the
 * rarer mark by far, and the model cannot tell them apart.
 */
export function arabicCommas(reading: LineReading): LineReading {
  if (reading.language === undefined || findLanguage(reading.language)?.traineddata !== 'ara') return reading;
  if (!reading.text.includes(ARABIC_SEMICOLON) && !reading.text.includes(CLOSE_QUOTE)) return reading;
  let open = 0;
  const texts = reading.chars.map((c) => {
    let text = '';
    for (const ch of c.text) {
      if (ch === OPEN_QUOTE) open++;
      if (ch === CLOSE_QUOTE && open > 0) open--;
      else if (ch === CLOSE_QUOTE || ch === ARABIC_SEMICOLON) {
        text += ARABIC_COMMA;
        continue;
      }
      text += ch;
    }
    return text;
  });
  return withCharTexts(reading, texts);
}
