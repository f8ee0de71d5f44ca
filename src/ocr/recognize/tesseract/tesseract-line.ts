import type { Page } from 'tesseract.js';
import type { RecognizedChar } from '../recognized-line.ts';
import type { TesseractLineImage } from './line-image.ts';

/** What Tesseract read on one line crop, in the crop's terms (x0/x1 as fractions of its width). */
export interface TesseractLineText {
  text: string;
  /** 0..1, mean of the symbol confidences (0 when nothing was read). */
  confidence: number;
  chars: RecognizedChar[];
}

/**
 * Bidirectional formatting marks (LRM, RLM, ALM, embeddings, isolates) that Tesseract's RTL
 * output wraps around digits and punctuation: invisible, and absent from Google's output.
 */
const BIDI_MARKS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
/** CJK characters: Chinese and Japanese are written without spaces (Korean keeps its spaces). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF00-\uFFEF]/u;

interface Word {
  text: string;
  x0: number;
  x1: number;
  symbols: RecognizedChar[];
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * Tesseract's words and symbols (from `blocks`) → the line's text and characters. Words and their
 * symbols come in logical (reading) order, also for Arabic and Hebrew, each with its own box, so
 * right-to-left text keeps logical order while every character's x0/x1 is its place on the line:
 * for RTL lines the first character sits near x = 1. Symbol boxes are clamped to their word's box
 * (Tesseract's per-symbol boxes of joined Arabic letters overlap), and a space character spans the
 * gap between two words.
 *
 * @example readTesseractLine(page, { scale: 1.2, pad: 12 }, 300)
 */
export function readTesseractLine(page: Page, image: Pick<TesseractLineImage, 'scale' | 'pad'>, cropWidth: number): TesseractLineText {
  const toFraction = (x: number) => clamp01((x - image.pad) / image.scale / cropWidth);
  const words: Word[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const wx0 = toFraction(word.bbox.x0);
          const wx1 = toFraction(word.bbox.x1);
          const symbols = word.symbols
            .map((s) => ({
              text: s.text.replace(BIDI_MARKS, ''),
              x0: Math.max(wx0, Math.min(wx1, toFraction(s.bbox.x0))),
              x1: Math.max(wx0, Math.min(wx1, toFraction(s.bbox.x1))),
              confidence: clamp01(s.confidence / 100),
            }))
            .filter((s) => s.text.trim().length > 0);
          if (symbols.length > 0) words.push({ text: symbols.map((s) => s.text).join(''), x0: wx0, x1: wx1, symbols });
        }
      }
    }
  }
  const chars: RecognizedChar[] = [];
  words.forEach((word, i) => {
    const previous = words[i - 1];
    const glued = previous !== undefined && CJK.test(previous.text.at(-1) ?? '') && CJK.test(word.text[0]);
    if (previous !== undefined && !glued) {
      // The gap between the words, whichever side of the previous word this one is on.
      const [gx0, gx1] = word.x0 >= previous.x1 ? [previous.x1, word.x0] : [word.x1, previous.x0];
      chars.push({
        text: ' ',
        x0: Math.min(gx0, gx1),
        x1: Math.max(gx0, gx1),
        confidence: Math.min(...[previous, word].map((w) => w.symbols[0].confidence)),
      });
    }
    chars.push(...word.symbols);
  });
  const visible = chars.filter((c) => c.text !== ' ');
  const confidence = visible.length === 0 ? 0 : visible.reduce((sum, c) => sum + c.confidence, 0) / visible.length;
  return { text: chars.map((c) => c.text).join(''), confidence, chars };
}
