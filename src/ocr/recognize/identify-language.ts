import { franc } from 'franc-min';
import { quadGap } from '../geometry.ts';
import type { Quad } from '../ocr-types.ts';

/**
 * Latin-script languages whose accents PP-OCR drops and a Tesseract model restores (franc's ISO
 * 639-3 code → the catalogue's BCP-47 code). English is read by PP-OCR alone.
 */
const ACCENTED_LATIN: ReadonlyMap<string, string> = new Map([
  ['fra', 'fr'],
  ['deu', 'de'],
  ['spa', 'es'],
  ['ita', 'it'],
  ['por', 'pt'],
]);
const CANDIDATES = ['eng', ...ACCENTED_LATIN.keys()];

/**
 * Below this many letters a text's trigrams do not tell these languages apart: a photo's signs, a
 * plate, a short line ("cool down completely." reads as Hungarian). A page is asked first, with
 * every language franc knows, so that Malay or Dutch text is not taken for its nearest neighbour here.
 */
const PAGE_MIN_LETTERS = 200;
const LINE_MIN_LETTERS = 30;

const letterCount = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

/**
 * A page in French, German, Spanish, Italian or Portuguese (and maybe English) none of whose lines is
 * long enough to tell on its own: short lines, or lines that run from one language into the next
 * (Tesseract's own test page). Each line is read by its likeliest language's model with the others
 * behind it (`modelsForShortLine`): Tesseract picks a model per word.
 */
export const SEVERAL = 'mul';
/** The Tesseract models that may read a `SEVERAL` page's lines (their names are franc's codes). */
export const SEVERAL_MODELS: readonly string[] = [...ACCENTED_LATIN.keys(), 'eng'];

/**
 * The Tesseract models (their names are franc's codes), joined by "+" as Tesseract's `-l` takes them,
 * for a line of a page none of whose lines could be told, among `models` (`SEVERAL_MODELS`, or the
 * hinted ones of a page hinted with several Latin languages). The line's likeliest language's model comes first,
 * as Tesseract's first model reads every word and the others only the words it doubts; English last,
 * as it reads "fährt" as "fahrt" without doubt. Mixed pages: 1 − CER 98.8 / 97.2 with one pass,
 * English first; 99.3 / 98.1 English last; 99.8 / 98.4 each line's likeliest first (docs/decisions.md).
 */
export function modelsForShortLine(text: string, models: readonly string[]): string {
  const others = models.filter((model) => model !== 'eng');
  const likely = franc(text, { only: others, minLength: 1 });
  const english = models.includes('eng') ? ['eng'] : [];
  return [...others.filter((model) => model === likely), ...others.filter((model) => model !== likely), ...english].join('+');
}

/**
 * A `SEVERAL` page's line's likeliest language (BCP-47) among English and the five: not sure enough to
 * read it by that model alone, but what its words report and whether the English-only text fixes may cut them.
 */
export function likelyLanguage(text: string): string | undefined {
  const code = franc(text, { only: CANDIDATES, minLength: 1 });
  return code === 'eng' ? 'en' : ACCENTED_LATIN.get(code);
}

/**
 * The language of each line read without a hint, when the page is written in French, German,
 * Spanish, Italian or Portuguese (`undefined` for every line of any other page, English included).
 * Each line long enough to tell is identified on its own among English and those five, so a page
 * in several languages is split by paragraph; a shorter line takes the language of the nearest line
 * that could be told; where none can be told, every line is `SEVERAL`. PP-OCR's reading has lost
 * the accents, but the words are there.
 *
 * @example identifyLanguages(['Avant la première utilisation, lisez ces instructions …', …], quads) // ['fr', …]
 */
export function identifyLanguages(texts: readonly string[], quads: readonly Quad[]): Array<string | undefined> {
  const page = texts.join('\n');
  if (letterCount(page) < PAGE_MIN_LETTERS || !ACCENTED_LATIN.has(franc(page))) return texts.map(() => undefined);
  const told = tellLines(texts, quads, CANDIDATES);
  if (told.every((code) => code === undefined)) return texts.map(() => SEVERAL);
  return told.map((code) => (code === 'eng' ? 'en' : code && ACCENTED_LATIN.get(code)));
}

/**
 * Each line's language among `candidates` (ISO 639-3, as franc and Tesseract's model names spell
 * them): a line of at least `LINE_MIN_LETTERS` letters on its own, a shorter one as its nearest
 * told line; all `undefined` when no line is long enough. The caller knows the page is in these
 * languages (its hints, or `identifyLanguages`' look at the whole page).
 *
 * @example tellLines(['Il museo resterà chiuso lunedì per lavori di manutenzione.', 'Grazie'], quads, ['ita', 'spa']) // ['ita', 'ita']
 */
export function tellLines(texts: readonly string[], quads: readonly Quad[], candidates: readonly string[]): Array<string | undefined> {
  const told = texts.map((t) => (letterCount(t) < LINE_MIN_LETTERS ? undefined : franc(t, { only: [...candidates], minLength: 1 })));
  const known = told.flatMap((l, i) => (l === undefined || l === 'und' ? [] : [i]));
  if (known.length === 0) return texts.map(() => undefined);
  // Nearest by the gap between the lines, not their centres: a heading sits closest to the paragraph it introduces.
  return told.map((l, i) => {
    if (l !== undefined && l !== 'und') return l;
    const nearest = known.reduce((best, k) => (quadGap(quads[k], quads[i]) < quadGap(quads[best], quads[i]) ? k : best));
    return told[nearest];
  });
}
