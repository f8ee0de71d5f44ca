import { findLanguage, installedLanguages, LANGUAGES } from '../ocr/recognize/languages.ts';
import { CliError } from './command.ts';

/**
 * Tesseract names languages by traineddata (`eng`, `chi_sim`, `ara`); Google and our API by BCP-47
 * (`en`, `zh-Hans`, `ar`). The CLI takes both, so `--lang eng+ara` from a tesseract habit works. The
 * catalogue's `traineddata` gives most names; PP-OCR reads English and Chinese without a traineddata.
 */
const TESSERACT_EXTRA: Record<string, string> = { eng: 'en', chi_sim: 'zh-Hans', chi_tra: 'zh-Hant' };

export const TESSERACT_CODES: ReadonlyMap<string, string> = new Map([
  ...Object.entries(TESSERACT_EXTRA),
  ...LANGUAGES.filter((l) => l.traineddata).map((l) => [l.traineddata!, l.code] as const),
]);

const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** `--lang` → BCP-47 hints; separated by `,` or Tesseract's `+`. Throws CliError (exit 2) on an unknown code. */
export function parseLanguageOption(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const codes = raw
    .split(/[,+]/)
    .map((h) => h.trim())
    .filter(Boolean);
  if (codes.length === 0) throw new CliError('--lang needs at least one language code, e.g. --lang ar,en or --lang ara+eng', 2);
  return codes.map((code) => {
    const tag = TESSERACT_CODES.get(code.toLowerCase()) ?? code;
    if (code.length > 35 || !BCP47.test(tag) || !findLanguage(tag)) {
      throw new CliError(`--lang: unknown or uninstalled language ${JSON.stringify(code.slice(0, 40))}; installed: ${languageList()}`, 2);
    }
    return tag;
  });
}

/** `en (eng), ar (ara), …`: both spellings of every installed language. */
export function languageList(): string {
  const tessOf = new Map([...TESSERACT_CODES].map(([t, c]) => [c, t]));
  return installedLanguages()
    .map((l) => (tessOf.has(l.code) ? `${l.code} (${tessOf.get(l.code)})` : l.code))
    .join(', ');
}
