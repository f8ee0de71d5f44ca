import { findLanguage, installedLanguages, latinLanguageOf } from '../ocr/recognize/languages.ts';

/**
 * The languages `imageContext.languageHints` may name: the one list, extended as engines learn
 * languages. A hint matches on its language subtag (`en-US` → `en`) or language + script
 * (`zh-Hant-TW` → `zh-Hant`). Any other language written in Latin script is accepted too and read as
 * unhinted Latin text (`latinLanguageOf`). Google refuses hints outside its list ("Text detection returns
 * an error if one or more of the specified languages is not one of the supported languages",
 * image_annotator.proto `ImageContext.language_hints`), so other scripts we cannot read are refused.
 */
export const SUPPORTED_LANGUAGES: readonly string[] = installedLanguages().map((l) => l.code);

/** RFC 5646 shape, loosely: a 2–3 letter language, then 1–8 character alphanumeric subtags. */
const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

export type LanguageHintCheck = { ok: true } | { ok: false; message: string };

/** Checks one hint; the message names the hint and the supported list. */
export function checkLanguageHint(hint: string): LanguageHintCheck {
  if (!BCP47.test(hint)) {
    return { ok: false, message: `Invalid language hint "${hint}": not a BCP-47 language tag.` };
  }
  // The catalogue (src/ocr/recognize/languages.ts) also knows aliases: `iw` → `he`, `zh-TW` → `zh-Hant`.
  if (findLanguage(hint) !== undefined || latinLanguageOf(hint) !== undefined) return { ok: true };
  return {
    ok: false,
    message: `Unsupported language hint "${hint}". Supported languages: ${SUPPORTED_LANGUAGES.join(', ')}, and any other language written in Latin script.`,
  };
}
