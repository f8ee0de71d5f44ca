import type { DetectedLanguage } from '../ocr-types.ts';

/**
 * Language guesses from the script of the text, the way Google fills `detectedLanguages`: a word's
 * language from its letters, a line's Latin words marked Vietnamese when any of them carries a
 * letter only Vietnamese uses, Han read as Japanese when the line also has kana.
 */
const SCRIPTS: ReadonlyArray<[RegExp, string]> = [
  [/\p{Script=Hangul}/u, 'ko'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hebrew}/u, 'he'],
];

/** ă â đ ê ô ơ ư are shared with other languages only in part; ơ ư ă đ and U+1EA0–U+1EF9 are Vietnamese. */
const VIETNAMESE = /[ăđơưĂĐƠƯ\u1EA0-\u1EF9]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;

export interface LineLanguageContext {
  /** The recognizer's guess for the whole line, used for Latin-script words. */
  lineLanguage?: string;
  /** Any word of the line has Vietnamese-only letters. */
  vietnamese: boolean;
  /** The line has kana, so Han characters are Japanese. */
  kana: boolean;
}

export function lineLanguageContext(text: string, lineLanguage?: string): LineLanguageContext {
  const nfc = text.normalize('NFC');
  return { lineLanguage, vietnamese: VIETNAMESE.test(nfc), kana: KANA.test(nfc) };
}

/** The language of one word, or undefined when it has no letters (digits, punctuation). */
export function languageOfWord(word: string, ctx: LineLanguageContext): string | undefined {
  const text = word.normalize('NFC');
  if (!LETTER.test(text)) return undefined;
  for (const [re, code] of SCRIPTS) {
    if (!re.test(text)) continue;
    return code === 'zh' && ctx.kana ? 'ja' : code;
  }
  if (LATIN.test(text)) {
    if (ctx.vietnamese) return 'vi';
    const hinted = ctx.lineLanguage;
    const hintIsLatin = hinted !== undefined && !SCRIPTS.some(([, code]) => code === hinted.split('-')[0]);
    return hintIsLatin ? hinted : 'en';
  }
  return undefined;
}

/** Languages weighted by character count, most frequent first, with their share as confidence. */
export function languagesByWeight(weights: ReadonlyMap<string, number>): DetectedLanguage[] {
  let total = 0;
  for (const w of weights.values()) total += w;
  if (total <= 0) return [];
  return [...weights.entries()]
    .filter(([, w]) => w > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([languageCode, w]) => ({ languageCode, confidence: w / total }));
}

export function addWeights(into: Map<string, number>, from: Iterable<DetectedLanguage>, weight: number): void {
  for (const l of from) into.set(l.languageCode, (into.get(l.languageCode) ?? 0) + l.confidence * weight);
}
