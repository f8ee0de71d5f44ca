import type { RecognizedChar } from '../recognize/recognized-line.ts';
import type { LineReading } from '../recognize/recognizer.ts';

/**
 * The reading with `chars` as its characters and its text rebuilt from them: how the word-level
 * fixes after recognition (`fix-confusables.ts`, the lexicon steps) hand back a changed line.
 */
export function withChars(reading: LineReading, chars: RecognizedChar[]): LineReading {
  return { ...reading, text: chars.map((c) => c.text).join(''), chars };
}

/**
 * The reading with character `i` reading `texts[i]` (positions and confidences kept), or the reading
 * itself when no character changed.
 */
export function withCharTexts(reading: LineReading, texts: readonly string[]): LineReading {
  if (reading.chars.every((c, i) => c.text === texts[i])) return reading;
  return withChars(
    reading,
    reading.chars.map((c, i) => (texts[i] === c.text ? c : { ...c, text: texts[i] })),
  );
}
