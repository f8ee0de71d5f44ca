import fs from 'node:fs';
import path from 'node:path';
import type { Polygon } from './polygon-iou.ts';

/** One record of `../shared/data/ocr-dev/manifest.jsonl` (see its README for the fields). */
export interface OcrDevRecord {
  id: string;
  image: string;
  kind: string;
  lang: string;
  lines: Array<{ text: string; polygon?: Polygon; ignore?: boolean; words?: Array<{ text: string; polygon?: Polygon }> }>;
  fullText: string | null;
  partial?: boolean;
  width?: number;
  height?: number;
  /** `tune` (develop on it) or `check` (confirm on it). */
  split?: string;
  /** `Fraktur` for black-letter pages. */
  script?: string;
  /** Full pages: text columns counted by eye. */
  columns?: number;
}

/** The set's records with absolute image paths, or undefined when the set is absent. */
export function loadOcrDev(dir: string): Array<OcrDevRecord & { file: string }> | undefined {
  const manifest = path.join(dir, 'manifest.jsonl');
  if (!fs.existsSync(manifest)) return undefined;
  return fs
    .readFileSync(manifest, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as OcrDevRecord)
    .map((r) => ({ ...r, file: path.join(dir, r.image) }));
}

/** Which score a record gets, and the table row it belongs to. */
export function rowOf(r: OcrDevRecord): { row: string; metric: 'spotting F1' | 'bag-of-words F1' | '1 − CER' | 'recall' } {
  if (r.partial) return { row: `${r.kind} (partial)`, metric: 'recall' };
  if (r.kind === 'scene') return { row: 'scene', metric: 'spotting F1' };
  if (r.kind === 'receipt' || r.kind === 'form') return { row: r.kind, metric: 'bag-of-words F1' };
  if (r.kind === 'multilingual') return { row: `multilingual (${r.lang})`, metric: '1 − CER' };
  // Black-letter pages have their own bar (Tesseract `deu`), apart from modern print.
  if (r.script === 'Fraktur') return { row: `${r.kind} (Fraktur)`, metric: '1 − CER' };
  return { row: r.kind, metric: '1 − CER' };
}

/** A single text line (UW-III, OpenArabic, VinText crops): Tesseract reads these with `--psm 7`. */
export function isSingleLine(r: OcrDevRecord): boolean {
  return r.fullText !== null && r.lines.length === 1 && !r.fullText.includes('\n');
}
