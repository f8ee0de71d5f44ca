/**
 * Text normalisation shared by the scorers, applied the same way to the ground truth and to both
 * engines' output.
 */

/** Runs of whitespace (including newlines) become one space; ends trimmed. */
export function foldWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * Quotes as ASCII: UW-III ground truth writes TeX quotes (``…'') where the print shows curly ones,
 * and UNLV's is straight ASCII; engines emit either.
 */
export function asciiQuotes(text: string): string {
  return text.replace(/``|''|[“”„‟″]/gu, '"').replace(/[‘’‚‛′`]/gu, "'");
}

/**
 * The OpenArabic ground truth omits most harakat and unifies some letters (README §6): drop
 * diacritics and tatweel, read ى as ي and every alef form as ا, after NFKC (which also maps
 * presentation forms to base letters).
 */
export function normalizeArabic(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/gu, '')
    .replace(/ى/gu, 'ي')
    .replace(/[أإآٱ]/gu, 'ا');
}

/**
 * Black-letter print conventions (README §NZZ, "normalise before scoring"): the NZZ truth writes a line-end
 * hyphen as `¬` where the print shows a double hyphen (`⸗`, `=` at a line's end) and an engine may read `-`;
 * it writes long s as `s`. Nothing else in the set holds these marks.
 */
export function blackLetterMarks(text: string): string {
  return text.replace(/[¬⸗]|=(?=[ \t]*(?:\n|$))/gu, '-').replace(/ſ/gu, 's');
}

/** The text one CER comparison sees: NFC (NFKC + Arabic rules for `ar`), black-letter marks, ASCII quotes, folded whitespace. */
export function normalizeForCer(text: string, lang: string): string {
  const base = lang === 'ar' ? normalizeArabic(text) : blackLetterMarks(text.normalize('NFC'));
  return foldWhitespace(asciiQuotes(base));
}

/**
 * Bag-of-words tokens: NFKC, case-folded, ASCII quotes, split on whitespace, punctuation stripped
 * from each token's ends ("TOTAL:" = "total"), empty tokens dropped. (This reproduces the
 * reference numbers quoted in issue 3 for Tesseract: receipts 70.5, forms 69.2.)
 */
export function wordTokens(text: string): string[] {
  return asciiQuotes(text.normalize('NFKC').toLowerCase())
    .split(/\s+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

/**
 * A word for end-to-end spotting: case-folded with leading/trailing punctuation removed (as the
 * ICDAR 2015 end-to-end script does), so "SKIN!" in the ground truth matches a "SKIN" token.
 */
export function spottingText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}
