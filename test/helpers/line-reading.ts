import type { LineReading } from '../../src/ocr/recognize/recognizer.ts';

/**
 * A recognizer reading of `text` with its characters evenly spaced along the line, as CTC decoding
 * gives them: for tests of the word-level fixes that run after recognition.
 */
export function lineReading(text: string, confidence = 0.9): LineReading {
  const chars = [...text].map((c, i, all) => ({ text: c, x0: i / all.length, x1: (i + 1) / all.length, confidence }));
  return { text, confidence, chars };
}
