import type { RecognizedLine } from '../recognize/recognized-line.ts';
import { wordRuns } from './word-runs.ts';

/**
 * In TEXT_DETECTION (photos), a word read with a mean character confidence below this is noise far
 * more often than text: on ICDAR 2015 scene photos every word under 0.7 was a misread texture,
 * a cut-off fragment or a blurred sign ("LAOONE", "ORBNYE", "CA"), while correct words read ≥ 0.9.
 * Between 0.7 and 0.85 misreads still outnumber hits: raising the bar from 0.7 to 0.85 took spotting
 * F1 from 51.3 to 53.8 (ocr-dev scenes, averaged over the photos scaled by 0.9–1.1).
 */
export const MIN_SCENE_WORD_CONFIDENCE = 0.85;

const isSpace = (t: string) => t.trim() === '';

/**
 * The line without its doubtful words (space-separated runs of characters whose mean confidence is
 * below `minConfidence`), one neighbouring space dropped with each; undefined when nothing is left.
 * Character positions are kept, so the remaining words keep their boxes.
 *
 * @example const kept = lines.flatMap((l) => dropDoubtfulWords(l) ?? []);
 */
export function dropDoubtfulWords(line: RecognizedLine, minConfidence = MIN_SCENE_WORD_CONFIDENCE): RecognizedLine | undefined {
  const chars = line.chars;
  if (chars.length === 0) return line.confidence >= minConfidence ? line : undefined;
  const keep = chars.map(() => true);
  for (const { start, end } of wordRuns(chars.map((c) => c.text))) {
    let sum = 0;
    for (let k = start; k < end; k++) sum += Number.isFinite(chars[k].confidence) ? chars[k].confidence : 0;
    if (sum / (end - start) >= minConfidence) continue;
    for (let k = start; k < end; k++) keep[k] = false;
    // With the word, the space after it (or, for the last word, the one before it).
    if (end < chars.length) keep[end] = false;
    else if (start > 0) keep[start - 1] = false;
  }
  if (keep.every(Boolean)) return line;
  const kept = chars.filter((_, i) => keep[i]);
  // Spaces left at the ends (a dropped first or last word) go too.
  while (kept.length > 0 && isSpace(kept[0].text)) kept.shift();
  while (kept.length > 0 && isSpace(kept[kept.length - 1].text)) kept.pop();
  if (kept.length === 0) return undefined;
  const confidence = kept.reduce((s, c) => s + (Number.isFinite(c.confidence) ? c.confidence : 0), 0) / kept.length;
  return { ...line, text: kept.map((c) => c.text).join(''), chars: kept, confidence };
}

/**
 * A photo's lines without their doubtful words (undefined where nothing is left), one per line given,
 * except that a photo whose every word is doubtful keeps its most confident line whole: that is a
 * hard-to-read sign or plate, not a texture, and Google returns its text. On ocr-dev a blurred plate
 * came back empty before; no kind's score moved on either split.
 *
 * @example const kept = dropDoubtfulWordsOfPhoto(lines).flatMap((l) => l ?? []);
 */
export function dropDoubtfulWordsOfPhoto(
  lines: readonly RecognizedLine[],
  minConfidence = MIN_SCENE_WORD_CONFIDENCE,
): Array<RecognizedLine | undefined> {
  const kept = lines.map((line) => dropDoubtfulWords(line, minConfidence));
  if (lines.length === 0 || kept.some((line) => line !== undefined)) return kept;
  const best = lines.reduce((a, b) => (b.confidence > a.confidence ? b : a));
  return lines.map((line) => (line === best ? line : undefined));
}
