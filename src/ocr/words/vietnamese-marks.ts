import type { LineReading } from '../recognize/recognizer.ts';
import { withCharTexts } from './reading-chars.ts';
import { wordRuns } from './word-runs.ts';

/** Combining tone marks (sắc, huyền, hỏi, ngã, nặng); the vowels' own marks (ă â ê ô ơ ư) are not tones. */
const TONES = /[\u0301\u0300\u0309\u0303\u0323]/u;
const ACUTE = '\u0301';
/** Vietnamese initial consonants, longest first so `ngh` wins over `ng` and `n`. */
const INITIAL = /^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|b|c|d|đ|g|h|k|l|m|n|p|r|s|t|v|x)?/u;
/** A rhyme's shape: one to three vowels, then at most one final consonant. Anything else is no Vietnamese syllable. */
const RHYME = /^([aăâeêioôơuưy]{1,3})(c|ch|m|n|ng|nh|p|t)?$/u;
/** Finals after which a syllable has sắc or nặng only (a checked syllable: `các`, `học`, never `cac`). */
const STOP_FINAL = /^(c|ch|p|t)$/u;

interface Syllable {
  /** Lower-case letters with their vowel marks but no tone, one per character of the word. */
  letters: string[];
  /** The tone mark (a combining character) or '' for ngang. */
  tone: string;
  /** Index in `letters` where the rhyme starts. */
  rhyme: number;
}

function syllableOf(word: readonly string[]): Syllable | undefined {
  let tone = '';
  const letters: string[] = [];
  for (const ch of word) {
    const parts = ch.toLowerCase().normalize('NFD');
    const marks = [...parts].filter((c) => TONES.test(c));
    if (marks.length > 1 || (marks.length === 1 && tone !== '')) return undefined;
    if (marks.length === 1) tone = marks[0];
    letters.push(
      [...parts]
        .filter((c) => !TONES.test(c))
        .join('')
        .normalize('NFC'),
    );
  }
  if (letters.some((l) => [...l].length !== 1)) return undefined;
  const rhyme = INITIAL.exec(letters.join(''))![0].length;
  // `gi` before a vowel is the initial; `gi` alone or before a consonant (`gìn`) is g + the vowel i.
  const start = rhyme === 2 && letters[0] === 'g' && !/^[aăâeêoôơuưy]/u.test(letters[2] ?? '') ? 1 : rhyme;
  return RHYME.test(letters.slice(start).join('')) ? { letters, tone, rhyme: start } : undefined;
}

/**
 * The marks a Vietnamese syllable must carry that the reading lost, from the language's spelling rules
 * alone: the diphthongs before a final are always written `iê`/`yê` and (with rare exceptions) `ươ` or `uô`
 * (`tien` → `tiên`, `truong` → `trương`), `e` before `nh`/`ch` is `ê`, and a checked syllable (final c, ch, p,
 * t) has a sắc or a nặng (`phat` → `phát`). Where the rules leave a choice the commoner spelling is taken:
 * `ươ`, and sắc. The tone goes on the vowel modern spelling puts it on (the diphthong's second, else the
 * vowel before the final). Returns the letters, or undefined when the syllable already obeys the rules.
 */
function restored(s: Syllable): { letters: string[]; tone: string; toneAt: number } | undefined {
  const letters = [...s.letters];
  const rhyme = letters.slice(s.rhyme).join('');
  const [, vowels, final = ''] = RHYME.exec(rhyme)!;
  const v = s.rhyme;
  let changed = false;
  // A diphthong before a final consonant (`iên`, `uyên`), or before a semivowel (`iêu`, `ươi`).
  const diphthongAt = final !== '' && vowels.length >= 2 ? v + vowels.length - 2 : vowels.length === 3 ? v : -1;
  const pair = diphthongAt >= 0 ? letters[diphthongAt] + letters[diphthongAt + 1] : '';
  if (/^[iy]e$/u.test(pair)) {
    letters[diphthongAt + 1] = 'ê';
    changed = true;
  } else if (/^(uo|ưo|uơ)$/u.test(pair)) {
    [letters[diphthongAt], letters[diphthongAt + 1]] = ['ư', 'ơ'];
    changed = true;
  } else if (vowels === 'e' && (final === 'nh' || final === 'ch')) {
    letters[v] = 'ê';
    changed = true;
  }
  // A checked syllable read with huyền, hỏi or ngã is wrong too, but which of the two it had is anyone's guess.
  const tone = STOP_FINAL.test(final) && s.tone === '' ? ACUTE : s.tone;
  changed ||= tone !== s.tone;
  return changed ? { letters, tone, toneAt: toneVowel(letters, s.rhyme, vowels, final) } : undefined;
}

/** Where modern spelling sets the tone: a marked vowel (ê ơ ô â ă ư) if there is one, else the last vowel before a final, else the middle one. */
function toneVowel(letters: readonly string[], rhyme: number, vowels: string, final: string): number {
  const span = [...vowels].map((_, k) => rhyme + k);
  const marked = span.filter((i) => /[ăâêôơư]/u.test(letters[i]));
  if (marked.length > 0) return marked[marked.length - 1];
  if (final !== '' || span.length === 1) return span[span.length - 1];
  return span[span.length - 2];
}

/** `letter` (lower case, vowel marks, no tone) in the case of `model`, carrying `tone`. */
function spelled(letter: string, tone: string, model: string): string {
  const out = (letter + tone).normalize('NFC');
  return model !== model.toLowerCase() ? out.toUpperCase() : out;
}

const LETTER = /\p{L}/u;

/**
 * Puts back the marks Vietnamese spelling requires on words of a Vietnamese line that lost them
 * (`restored`): PP-OCR's English model reads the letters of a sign without marks, and fusion
 * (`fuse-diacritics.ts`) only has Tesseract's marks where Tesseract read the word too. Words that are
 * no Vietnamese syllable in shape (`SHOP`, numbers) and common English words (`DIET`, `SET`) are left alone.
 *
 * @example restoreVietnameseMarks(line, lexicon.common).text // "THUONG" → "THƯƠNG"
 */
export function restoreVietnameseMarks(reading: LineReading, englishWords: ReadonlySet<string> | undefined): LineReading {
  if (reading.language !== 'vi') return reading;
  const texts = reading.chars.map((c) => c.text);
  for (const { start, end } of wordRuns(texts)) {
    // The word's letters: punctuation at either end stays as read ("DIEN," keeps its comma).
    let a = start;
    let b = end;
    while (a < b && !LETTER.test(texts[a])) a += 1;
    while (b > a && !LETTER.test(texts[b - 1])) b -= 1;
    const word = texts.slice(a, b);
    if (word.length === 0 || word.some((t) => !LETTER.test(t))) continue;
    if (englishWords?.has(word.join('').toLowerCase())) continue;
    const syllable = syllableOf(word);
    const fixed = syllable && restored(syllable);
    if (!fixed) continue;
    fixed.letters.forEach((letter, k) => {
      texts[a + k] = spelled(letter, k === fixed.toneAt ? fixed.tone : '', word[k]);
    });
  }
  return withCharTexts(reading, texts);
}
