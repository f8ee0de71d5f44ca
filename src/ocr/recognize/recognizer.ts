import type { DecodedImage } from '../decode/decode-image.ts';
import type { OcrMode, Quad } from '../ocr-types.ts';
import type { InkProfile } from './ink-profile.ts';
import type { RecognizedChar } from './recognized-line.ts';

/** What a recognizer reads from one line. */
export interface LineReading {
  text: string;
  confidence: number;
  /** `x0`/`x1` are fractions of the line from corner 0 towards corner 1 of its quad. */
  chars: RecognizedChar[];
  /** BCP-47 of the language whose model read the line (set by the routed recognizer for hinted languages). */
  language?: string;
  /** PP-OCR: each character's CTC peak as a fraction of the line, for the word-gap fix (`text-fixes.ts`). */
  centres?: number[];
  /** PP-OCR: where the ink of the crop it read is, for the word-gap fix. */
  ink?: InkProfile;
}

/** Per-image context a recognizer may route on. */
export interface RecognizeOptions {
  /** `OcrOptions.languageHints`: validated BCP-47 tags, empty = auto-detect. */
  languageHints: readonly string[];
  /** `OcrOptions.mode`: photos and documents are read with different trade-offs. */
  mode?: OcrMode;
  /** The pipeline found the image to be a photo (`paperShare`), whatever the mode asked. */
  photo?: boolean;
}

/**
 * A text-line recognizer: the pipeline detects and orients lines, then hands each recognizer the
 * quads it should read (corner 0→1 = reading direction). PP-OCRv4 is the default; a Tesseract-LSTM
 * recognizer for other scripts plugs in behind the same port.
 */
export interface Recognizer {
  readonly name: string;
  /** Readings in the order of `lines`. */
  recognize(image: DecodedImage, lines: readonly Quad[], options?: RecognizeOptions): Promise<LineReading[]>;
  /**
   * Optionally reads the whole page itself, its own lines and their boxes (black-letter pages, read
   * by Tesseract's Fraktur model with its own layout analysis); undefined: the lines are read one by one.
   */
  readPage?(
    image: DecodedImage,
    lines: readonly Quad[],
    options?: RecognizeOptions,
  ): Promise<{ quads: Quad[]; readings: LineReading[] } | undefined>;
  /**
   * Optionally reads a word or line crop whole, before any detection (a line in a script only Tesseract
   * reads: the detector would only find the line the crop is); undefined: the crop is detected as usual.
   */
  readCrop?(image: DecodedImage, options?: RecognizeOptions): Promise<{ quads: Quad[]; readings: LineReading[] } | undefined>;
  /**
   * Optionally, the language of a page read without hints (`readings` of `lines`) that this recognizer
   * reads only when hinted (a script its default model lacks); undefined: the reading stands.
   */
  languageOf?(
    image: DecodedImage,
    lines: readonly Quad[],
    readings: readonly LineReading[],
    options?: RecognizeOptions,
  ): Promise<string | undefined>;
  /** Optionally regroups the detector's boxes into the lines this recognizer reads best (e.g. word boxes joined into rows). */
  groupLines?(image: DecodedImage, lines: readonly Quad[], options?: RecognizeOptions): Quad[];
}
