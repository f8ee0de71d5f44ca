import { locateTraineddata } from './tesseract/traineddata-location.ts';

/**
 * THE catalogue of languages Legible reads: what `imageContext.languageHints` may name, which
 * recognizer reads each language, and the published list (`docs/languages.md`,
 * `GET /api/vision/v1/languages`). PP-OCRv4's English recognizer reads Latin letters without diacritics,
 * its Chinese one Chinese (`recognize-text.ts` picks); everything else is read by a Tesseract LSTM model from npm
 * (`@tesseract.js-data/<traineddata>`), or from the system's tessdata folder where npm has none.
 */

/** ISO 15924 script of a language's usual writing. */
export type Script = 'Latn' | 'Hans' | 'Hant' | 'Arab' | 'Hebr' | 'Kore' | 'Jpan' | 'Deva' | 'Cyrl';

export type RecognizerId = 'ppocr' | 'tesseract';

export interface Language {
  /** Canonical BCP-47 tag, as hints and `locale` use it. */
  code: string;
  /** English display name. */
  name: string;
  script: Script;
  direction: 'ltr' | 'rtl';
  /** The recognizer that reads lines of this language when it is hinted. */
  recognizer: RecognizerId;
  /** Tesseract model name (`<traineddata>.traineddata`) when Tesseract reads it. */
  traineddata?: string;
  /** Where the model comes from: an npm package, or only a system tessdata folder (Debian `tesseract-ocr-rus`). */
  dataSource?: 'npm' | 'system';
  /** Other tags that mean this language (deprecated ISO 639 codes, regions that imply the script). */
  aliases?: readonly string[];
}

const tess = (traineddata: string, dataSource: 'npm' | 'system' = 'npm') => ({ recognizer: 'tesseract' as const, traineddata, dataSource });

export const LANGUAGES: readonly Language[] = Object.freeze([
  { code: 'en', name: 'English', script: 'Latn', direction: 'ltr', recognizer: 'ppocr' },
  { code: 'zh', name: 'Chinese', script: 'Hans', direction: 'ltr', recognizer: 'ppocr' },
  { code: 'zh-Hans', name: 'Chinese (Simplified)', script: 'Hans', direction: 'ltr', recognizer: 'ppocr', aliases: ['zh-cn', 'zh-sg'] },
  {
    code: 'zh-Hant',
    name: 'Chinese (Traditional)',
    script: 'Hant',
    direction: 'ltr',
    recognizer: 'ppocr',
    aliases: ['zh-tw', 'zh-hk', 'zh-mo'],
  },
  { code: 'ar', name: 'Arabic', script: 'Arab', direction: 'rtl', ...tess('ara') },
  { code: 'he', name: 'Hebrew', script: 'Hebr', direction: 'rtl', ...tess('heb'), aliases: ['iw'] },
  { code: 'vi', name: 'Vietnamese', script: 'Latn', direction: 'ltr', ...tess('vie') },
  { code: 'ko', name: 'Korean', script: 'Kore', direction: 'ltr', ...tess('kor') },
  { code: 'ja', name: 'Japanese', script: 'Jpan', direction: 'ltr', ...tess('jpn') },
  { code: 'hi', name: 'Hindi', script: 'Deva', direction: 'ltr', ...tess('hin') },
  { code: 'ru', name: 'Russian', script: 'Cyrl', direction: 'ltr', ...tess('rus', 'system') },
  { code: 'de', name: 'German', script: 'Latn', direction: 'ltr', ...tess('deu') },
  { code: 'fr', name: 'French', script: 'Latn', direction: 'ltr', ...tess('fra') },
  { code: 'es', name: 'Spanish', script: 'Latn', direction: 'ltr', ...tess('spa') },
  { code: 'pt', name: 'Portuguese', script: 'Latn', direction: 'ltr', ...tess('por') },
  { code: 'it', name: 'Italian', script: 'Latn', direction: 'ltr', ...tess('ita') },
] satisfies Language[]);

const BY_TAG = new Map<string, Language>(
  LANGUAGES.flatMap((l) => [l.code, ...(l.aliases ?? [])].map((tag) => [tag.toLowerCase(), l] as const)),
);

/** A language is usable when its recognizer's model is on disk (PP-OCR always is). */
export function isLanguageInstalled(language: Language): boolean {
  return language.traineddata === undefined || locateTraineddata(language.traineddata) !== undefined;
}

/**
 * The catalogue entry a BCP-47 hint names, matching on language + script (`zh-Hant-TW` → `zh-Hant`),
 * language + region aliases (`zh-TW` → `zh-Hant`) and then the language alone (`en-US` → `en`,
 * `iw` → `he`). Undefined for tags we do not read or whose model is not installed.
 *
 * @example findLanguage('pt-BR')?.traineddata // 'por'
 */
export function findLanguage(hint: string): Language | undefined {
  const [language, second] = hint.toLowerCase().split('-');
  const candidates = second === undefined ? [language] : [`${language}-${second}`, language];
  for (const tag of candidates) {
    const found = BY_TAG.get(tag);
    if (found !== undefined) return isLanguageInstalled(found) ? found : undefined;
  }
  return undefined;
}

/**
 * The language a hint names when that language is written in Latin script: the catalogue's code, or, for a
 * Latin-script language outside the catalogue (`nl`, `pl-PL`, `sv`), its language subtag, by CLDR's likely
 * script (`Intl.Locale#maximize`). Such hints are read as Latin text without a hint is: Google's own advice is
 * that Latin-script text needs none, and a client switching from Google should not be refused for sending one.
 * Undefined for other scripts and for tags that name no locale.
 *
 * @example latinLanguageOf('nl-BE') // 'nl'; latinLanguageOf('th') // undefined
 */
export function latinLanguageOf(hint: string): string | undefined {
  const known = findLanguage(hint);
  if (known !== undefined) return known.script === 'Latn' ? known.code : undefined;
  try {
    const locale = new Intl.Locale(hint);
    return locale.maximize().script === 'Latn' ? locale.language : undefined;
  } catch {
    return undefined;
  }
}

/** The languages this installation reads: the catalogue minus models missing from disk. */
export function installedLanguages(): Language[] {
  return LANGUAGES.filter(isLanguageInstalled);
}
