import type { Quad } from '../ocr-types.ts';
import type { RecognizedChar, RecognizedLine } from '../recognize/recognized-line.ts';
import { sliceQuad } from './reading-frame.ts';

/** A word cut out of one recognized line, before layout places it in a paragraph. */
export interface WordDraft {
  text: string;
  box: Quad;
  confidence: number;
  symbols: Array<{ text: string; box: Quad; confidence: number }>;
  /** The line had whitespace right after this word (false for punctuation split off a word). */
  spaceAfter: boolean;
}

const SPACE = /^\s*$/u;
/** Written one per character: Google segments Chinese and Japanese into words without spaces. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const ALNUM = /[\p{L}\p{N}]/u;
/** Split off the ends of a word as their own tokens, as Google does ("WAITING" then "?"). */
const EDGE_PUNCT = /^[.,:;!?"'()[\]{}«»“”‘’„‚<>、。，．：；！？（）「」『』【】]$/u;

/**
 * The characters of a line with their positions; when the recognizer gave none (or they don't add
 * up to any text) the line's text is spread evenly along it.
 */
function charsOf(line: RecognizedLine): RecognizedChar[] {
  if (line.chars.length > 0 && line.chars.some((c) => !SPACE.test(c.text))) {
    return line.chars.map((c) => {
      const x0 = clamp01(c.x0);
      return { text: c.text, x0, x1: Math.max(x0, clamp01(c.x1)), confidence: clamp01(c.confidence) };
    });
  }
  const points = Array.from(line.text.normalize('NFC'));
  return points.map((text, i) => ({
    text,
    x0: i / points.length,
    x1: (i + 1) / points.length,
    confidence: clamp01(line.confidence),
  }));
}

/** A fraction or probability forced into 0..1 (NaN → 0). */
export function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

/** Cuts a whitespace-free run of characters into Google-like tokens. */
function tokensOf(run: RecognizedChar[]): RecognizedChar[][] {
  if (!run.some((c) => ALNUM.test(c.text))) return [run];
  let start = 0;
  let end = run.length;
  while (start < end && EDGE_PUNCT.test(run[start].text)) start++;
  while (end > start && EDGE_PUNCT.test(run[end - 1].text)) end--;
  const out: RecognizedChar[][] = run.slice(0, start).map((c) => [c]);
  let current: RecognizedChar[] = [];
  for (const c of run.slice(start, end)) {
    if (CJK_CHAR.test(c.text)) {
      if (current.length) out.push(current);
      out.push([c]);
      current = [];
    } else {
      current.push(c);
    }
  }
  if (current.length) out.push(current);
  out.push(...run.slice(end).map((c) => [c]));
  return out;
}

/** Words and symbols of one line, left to right, with boxes cut from the line's quad. */
export function splitWords(line: RecognizedLine): WordDraft[] {
  const chars = charsOf(line);
  const words: WordDraft[] = [];
  let run: RecognizedChar[] = [];
  const flush = (spaceAfter: boolean) => {
    if (run.length === 0) return;
    const tokens = tokensOf(run);
    tokens.forEach((token, i) => words.push(wordOf(line.box, token, spaceAfter && i === tokens.length - 1)));
    run = [];
  };
  for (const c of chars) {
    if (SPACE.test(c.text)) flush(true);
    else run.push(c);
  }
  flush(false);
  return words;
}

function wordOf(lineBox: Quad, chars: RecognizedChar[], spaceAfter: boolean): WordDraft {
  const symbols = chars.map((c) => ({ text: c.text, box: sliceQuad(lineBox, c.x0, c.x1), confidence: c.confidence }));
  const x0 = Math.min(...chars.map((c) => c.x0));
  const x1 = Math.max(...chars.map((c) => c.x1));
  return {
    text: chars.map((c) => c.text).join(''),
    box: sliceQuad(lineBox, x0, x1),
    confidence: chars.reduce((s, c) => s + c.confidence, 0) / chars.length,
    symbols,
    spaceAfter,
  };
}
