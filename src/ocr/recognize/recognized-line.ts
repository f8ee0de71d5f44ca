import type { Quad } from '../ocr-types.ts';

/**
 * One character of a recognized line. `x0`/`x1` are fractions (0..1) of the line's length from its
 * left edge in reading direction (the edge from `box[0]` to `box[1]`), taken from the CTC timesteps
 * at which the character was emitted, so layout can cut words and symbols out of the line's quad.
 */
export interface RecognizedChar {
  text: string;
  x0: number;
  x1: number;
  /** 0..1, the recognizer's probability for this character. */
  confidence: number;
  /** PP-OCR: the likeliest other letter or digit where this one was read, for the lexicon (`correct-lookalike-letters.ts`). */
  alternative?: { text: string; confidence: number };
  /** PP-OCR: the space's highest probability between the previous character's timesteps and this one's (`word-gaps.ts`). */
  spaceBefore?: number;
}

/** A text line as the recognizer read it, in original-image pixels (after EXIF orientation). */
export interface RecognizedLine {
  /** Corners in reading order: top-left, top-right, bottom-right, bottom-left of the text. */
  box: Quad;
  text: string;
  /** 0..1, mean of the character confidences. */
  confidence: number;
  chars: RecognizedChar[];
  /** BCP-47 guess from the characters' scripts, e.g. `en`, `zh`; absent when unknown. */
  language?: string;
}
