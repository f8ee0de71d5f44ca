import { arabicCommas } from './arabic-commas.ts';
import { correctLookalikeLetters } from './correct-lookalike-letters.ts';
import type { EnglishLexicon } from './english-lexicon.ts';
import { digitsInWords, underlinesAsSpaces } from './fix-confusables.ts';
import { joinSplitWords } from './join-split-words.ts';
import type { OcrOptions } from '../ocr-types.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { restoreVietnameseMarks } from './vietnamese-marks.ts';
import { refineWordGapsOnInk } from './word-gaps.ts';

/** What the fixes may use besides the line itself. */
export interface TextFixContext {
  /** English words to check word boundaries and misread letters against; absent: those fixes pass. */
  lexicon?: EnglishLexicon;
  /** Common English words, whatever the hints: a Vietnamese sign's `DIET` is no syllable to put marks on. */
  englishWords?: ReadonlySet<string>;
}

/** One correction of recognised text, applied to each line on its own. */
export interface TextFix {
  readonly name: string;
  readonly fix: (reading: LineReading, context: TextFixContext) => LineReading;
}

/** English words would cut a French or German line into English ones ("jamais le" → "jam aisle"). */
const isEnglish = (r: LineReading) => r.language === undefined || r.language === 'en';

const withLexicon = (f: (r: LineReading, l: EnglishLexicon) => LineReading) => (r: LineReading, c: TextFixContext) =>
  c.lexicon && isEnglish(r) ? f(r, c.lexicon) : r;

/**
 * The text-fix stage, in the order it runs: word gaps from the ink first (the later fixes work on
 * words), character look-alikes within a word, then the lexicon's word-boundary and letter fixes, the
 * Arabic comma that Tesseract's Arabic model cannot read, and the marks Vietnamese spelling requires.
 * Each one is kept only as long as `npm run bench:ocr -- --ablate` shows it helps ocr-dev's `check`
 * split (the Vietnamese marks, which no check crop needs, on unseen draws of the same source instead):
 * full-width punctuation, Greek/Cyrillic look-alikes, plate separators and cutting run-together words in
 * two did not, and went (docs/decisions.md).
 */
export const TEXT_FIXES: readonly TextFix[] = [
  // Word gaps come from the crop's ink (`word-gaps.ts`), not from CTC blank runs.
  { name: 'word-gaps', fix: (r) => refineWordGapsOnInk(r, r.ink) },
  { name: 'underlines-as-spaces', fix: underlinesAsSpaces },
  { name: 'digits-in-words', fix: digitsInWords },
  { name: 'join-split-words', fix: withLexicon(joinSplitWords) },
  { name: 'lookalike-letters', fix: withLexicon(correctLookalikeLetters) },
  { name: 'arabic-commas', fix: arabicCommas },
  { name: 'vietnamese-marks', fix: (r, c) => restoreVietnameseMarks(r, c.englishWords) },
];

/** The lexicon applies when nothing but English (or nothing) is hinted: other languages' words would be cut into English ones. */
export function textFixContext(options: Pick<OcrOptions, 'languageHints'>, lexicon: EnglishLexicon | undefined): TextFixContext {
  const englishWords = lexicon?.common;
  return options.languageHints.some((h) => !h.toLowerCase().startsWith('en')) ? { englishWords } : { lexicon, englishWords };
}

/**
 * Every line through the fixes, in order, leaving out the ones named in `without` (ablation); the
 * recognizer's working fields (`centres`, `ink`) are gone from what comes back.
 *
 * @example const fixed = fixText(readings, textFixContext(options, lexicon));
 */
export function fixText(
  readings: readonly LineReading[],
  context: TextFixContext,
  without: ReadonlySet<string> = new Set(),
): LineReading[] {
  const fixes = TEXT_FIXES.filter((f) => !without.has(f.name));
  return readings.map((reading) => {
    let r = reading;
    for (const { fix } of fixes) r = fix(r, context);
    const { centres: _c, ink: _i, ...plain } = r;
    return plain;
  });
}
