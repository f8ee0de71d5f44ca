import { bagOfWordsCount, type MatchCount } from './bag-of-words.ts';
import { cerCount, type CerCount } from './char-error-rate.ts';
import type { EngineImageResult } from './engine-run.ts';
import { normalizeForCer, wordTokens } from './normalize-text.ts';
import { rowOf, type OcrDevRecord } from './ocr-dev-manifest.ts';
import { wordSpottingCount } from './word-spotting.ts';

export type ImageScore =
  | { row: string; metric: 'spotting F1' | 'bag-of-words F1' | 'recall'; match: MatchCount }
  | { row: string; metric: '1 − CER'; cer: CerCount };

/** Scores one engine's output for one image by the rule that fits the image's kind (README). */
export function scoreImage(r: OcrDevRecord, out: EngineImageResult): ImageScore {
  const { row, metric } = rowOf(r);
  if (metric === 'spotting F1') {
    const truth = r.lines.filter((l) => l.polygon).map((l) => ({ text: l.text, polygon: l.polygon!, ignore: l.ignore }));
    return { row, metric, match: wordSpottingCount(out.words, truth) };
  }
  if (metric === 'bag-of-words F1') {
    const truth = r.lines.filter((l) => !l.ignore).flatMap((l) => wordTokens(l.text));
    return { row, metric, match: bagOfWordsCount(wordTokens(out.text), truth) };
  }
  if (metric === 'recall') {
    // Partially annotated images (CCPD plates): is each annotated text somewhere in the output?
    const flat = (s: string) =>
      s
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[\s·•.]/gu, '');
    const found = flat(out.text);
    const truth = r.lines.filter((l) => !l.ignore);
    const matched = truth.filter((l) => found.includes(flat(l.text))).length;
    return { row, metric, match: { matched, predicted: truth.length, expected: truth.length } };
  }
  const reference = r.fullText ?? r.lines.map((l) => l.text).join('\n');
  return { row, metric, cer: cerCount(normalizeForCer(out.text, r.lang), normalizeForCer(reference, r.lang)) };
}
