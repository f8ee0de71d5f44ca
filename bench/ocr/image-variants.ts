import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { isSingleLine, type OcrDevRecord } from './ocr-dev-manifest.ts';
import type { Polygon } from './polygon-iou.ts';

type ImageRecord = OcrDevRecord & { file: string };

type Variant = {
  name: string;
  ext: string;
  make: (image: sharp.Sharp, width: number) => sharp.Sharp;
  /** The variant is the image resized by this: word boxes of the truth scale with it (scenes are scored by position). */
  scale?: number;
};

/**
 * How a page reaches a user other than as ocr-dev's clean 200–300 dpi scan: at half the size (a 150-dpi
 * scan), turned by 90° or 180° (scanned sideways or upside down), slanted by 2° (a page fed crooked), and
 * at 0.6 of the size as a grey JPEG of quality 35 (a phone upload). Layout rules fitted to one resolution fail on these first.
 */
const PAGE_VARIANTS: readonly Variant[] = [
  { name: 'half', ext: 'png', make: (page, width) => page.resize(Math.round(width / 2)).png() },
  { name: 'sideways', ext: 'png', make: (page) => page.rotate(90).png() },
  { name: 'upside-down', ext: 'png', make: (page) => page.rotate(180).png() },
  { name: 'slant', ext: 'png', make: (page) => page.rotate(2, { background: '#ffffff' }).png() },
  {
    name: 'jpeg',
    ext: 'jpg',
    make: (page, width) =>
      page
        .resize(Math.round(width * 0.6))
        .grayscale()
        .jpeg({ quality: 35 }),
  },
];

/**
 * ocr-dev's forms are ~100-dpi scans with a 7–8 px x-height; at 0.8 of the size (a coarser scan or fax)
 * their print is as small and soft as many users' forms (docs/decisions.md, 2026-11-27).
 */
const FORM_VARIANTS: readonly Variant[] = [
  { name: 'small', ext: 'png', make: (form, width) => form.resize(Math.round(width * 0.8)).png() },
];

/**
 * ocr-dev's receipts are flatbed scans; users also photograph them: on a dark table (the paper under half
 * the frame, so the image counts as a photo) and in dim warm light (paper darker than a scan's).
 */
const RECEIPT_VARIANTS: readonly Variant[] = [
  {
    name: 'on-table',
    ext: 'jpg',
    make: (receipt, width) =>
      receipt
        .resize(Math.round(width * 0.8))
        .extend(onTable(Math.round(width * 0.8)))
        .jpeg({ quality: 80 }),
  },
  {
    name: 'dim',
    ext: 'jpg',
    make: (receipt) => receipt.linear([0.55, 0.5, 0.4], [10, 8, 5]).jpeg({ quality: 80 }),
  },
];

/** A dark brown margin around a receipt `width` wide, so that the paper is about 40 % of the frame. */
function onTable(width: number) {
  const side = Math.round(width * 0.45);
  return { top: side, bottom: side, left: side, right: side, background: { r: 62, g: 46, b: 34 } };
}

/**
 * ocr-dev's street photos are 1280×720 (ICDAR 2015's camera); phones and dash cameras deliver them
 * smaller and larger. Spotting is scored by position, so the truth's boxes are scaled with the photo.
 */
const SCENE_VARIANTS: readonly Variant[] = [0.6, 1.5].map((scale) => ({
  name: `x${scale}`,
  ext: 'jpg',
  make: (photo, width) => photo.resize(Math.round(width * scale)).jpeg({ quality: 90 }),
  scale,
}));

/** Full pages of modern print (black letter is read by Tesseract whole, in its own order). */
function isPage(r: OcrDevRecord): boolean {
  return r.kind === 'document' && r.fullText !== null && !isSingleLine(r) && r.script !== 'Fraktur';
}

function variantsOf(r: OcrDevRecord): readonly Variant[] {
  if (isPage(r)) return PAGE_VARIANTS;
  return { form: FORM_VARIANTS, receipt: RECEIPT_VARIANTS, scene: SCENE_VARIANTS }[r.kind] ?? [];
}

function scalePolygon(polygon: Polygon, scale: number): Polygon {
  return polygon.map(([x, y]) => [x * scale, y * scale]) as Polygon;
}

/**
 * The variants of the full pages, forms, receipts and scenes among `records`, written to a temporary directory (never into
 * the repository) that goes when the process ends; each keeps its image's text and split, with `~half`,
 * `~sideways`, `~upside-down`, `~slant`, `~jpeg`, `~small`, `~on-table`, `~dim`, `~x0.6` or `~x1.5` after its id.
 */
export async function imageVariants(records: readonly ImageRecord[]): Promise<ImageRecord[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-image-variants-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const out: ImageRecord[] = [];
  for (const r of records) {
    const variants = variantsOf(r);
    if (variants.length === 0) continue;
    const { width = 0 } = await sharp(r.file).metadata();
    for (const v of variants) {
      const file = path.join(dir, `${r.id}~${v.name}.${v.ext}`);
      await v.make(sharp(r.file).flatten({ background: '#ffffff' }), width).toFile(file);
      const lines =
        v.scale === undefined ? r.lines : r.lines.map((l) => (l.polygon ? { ...l, polygon: scalePolygon(l.polygon, v.scale!) } : l));
      out.push({ ...r, id: `${r.id}~${v.name}`, file, lines });
    }
  }
  return out;
}
