/**
 * The engine's output: a plain, serialisable value (it crosses the worker-thread boundary) that the
 * Vision layer turns into Google's `textAnnotations` + `fullTextAnnotation`. Coordinates are pixels
 * of the original image as the client sent it (before EXIF rotation is undone — Google reports
 * boxes in the orientation the image is displayed, i.e. after EXIF orientation; we do the same).
 */

export interface Point {
  x: number;
  y: number;
}

/** Four corners in reading order: top-left, top-right, bottom-right, bottom-left (Google's order). */
export type Quad = [Point, Point, Point, Point];

/** google.cloud.vision.v1.TextAnnotation.DetectedBreak.BreakType, by name. */
export type BreakType = 'SPACE' | 'SURE_SPACE' | 'EOL_SURE_SPACE' | 'HYPHEN' | 'LINE_BREAK';

export interface DetectedLanguage {
  /** BCP-47, e.g. `en`, `zh`, `ar`, `vi`. */
  languageCode: string;
  /** 0..1 */
  confidence: number;
}

export interface OcrSymbol {
  text: string;
  box: Quad;
  confidence: number;
  /** The break after this symbol, if any (set on the last symbol of a word). */
  break?: BreakType;
}

export interface OcrWord {
  text: string;
  box: Quad;
  confidence: number;
  symbols: OcrSymbol[];
  languages: DetectedLanguage[];
}

export interface OcrParagraph {
  box: Quad;
  confidence: number;
  words: OcrWord[];
  languages: DetectedLanguage[];
}

export interface OcrBlock {
  box: Quad;
  confidence: number;
  paragraphs: OcrParagraph[];
  languages: DetectedLanguage[];
}

export interface OcrPage {
  width: number;
  height: number;
  confidence: number;
  blocks: OcrBlock[];
  languages: DetectedLanguage[];
}

export interface OcrResult {
  /** Full text in reading order; lines end with `\n` (Google's `fullTextAnnotation.text`). */
  text: string;
  /** Dominant language of the text (Google's `textAnnotations[0].locale`), absent when no text. */
  locale?: string;
  page: OcrPage;
}

export type OcrMode = 'text' | 'document';

export interface OcrOptions {
  /** TEXT_DETECTION (sparse scene text) or DOCUMENT_TEXT_DETECTION (dense pages). */
  mode: OcrMode;
  /** BCP-47 hints as the client sent them, already validated; empty = auto-detect. */
  languageHints: string[];
}

/** Why an image could not be read; the Vision layer maps these to per-image errors. */
export type OcrFailureCode =
  | 'IMAGE_EMPTY'
  | 'IMAGE_UNSUPPORTED' // not an image we can decode (Google: code 3 "Bad image data.")
  | 'IMAGE_CORRUPT'
  | 'IMAGE_TOO_LARGE' // over 75 MP (from the header) or 20 MB
  | 'OVERLOADED' // queue bound reached
  | 'TIMEOUT'
  | 'INTERNAL';

/** Results cross the worker boundary as data: class instances and custom errors do not survive it. */
export type OcrOutcome =
  | { ok: true; value: OcrResult; timings?: Record<string, number>; without?: Record<string, OcrResult> }
  | { ok: false; code: OcrFailureCode; message: string };
