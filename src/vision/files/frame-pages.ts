import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../../ocr/decode/decode-image.ts';
import { fileFailure, resolvePages, type FileLimits, type PagesOutcome, type RenderedPage } from './file-pages.ts';

/**
 * Pages of a multi-page TIFF or frames of a (possibly animated) GIF, through sharp: the frame count
 * and frame size come from the header (`metadata()`) and are checked before any frame is decoded;
 * each requested frame is then extracted alone (`page`) as a PNG for the OCR engine.
 */
export async function extractFrames(
  bytes: Uint8Array,
  kind: 'TIFF' | 'GIF',
  requested: readonly number[] | undefined,
  defaultCount: number,
  limits: FileLimits,
): Promise<PagesOutcome> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'none', limitInputPixels: false }).metadata();
  } catch {
    return fileFailure('INVALID_ARGUMENT', `Bad ${kind} data: the file could not be read.`);
  }
  const expected = kind === 'TIFF' ? 'tiff' : 'gif';
  if (meta.format !== expected)
    return fileFailure(
      'INVALID_ARGUMENT',
      `Bad ${kind} data: the file is ${meta.format ? `a ${meta.format.toUpperCase()} image` : 'not an image'}.`,
    );
  const totalPages = meta.pages ?? 1;
  if (totalPages > limits.maxPages) {
    return fileFailure('INVALID_ARGUMENT', `The ${kind} has ${totalPages} pages; at most ${limits.maxPages} are read (FILE_MAX_PAGES).`);
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (width * height > MAX_IMAGE_PIXELS) {
    return fileFailure(
      'INVALID_ARGUMENT',
      `The ${kind}'s pages are ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1e6} megapixels are read.`,
    );
  }
  const resolved = resolvePages(requested, totalPages, defaultCount);
  if (!resolved.ok) return resolved;
  const pages: RenderedPage[] = [];
  for (const pageNumber of resolved.pages) {
    try {
      // A multi-page TIFF's pages may differ in size: each one is checked against the budget again.
      const { data, info } = await sharp(bytes, { page: pageNumber - 1, pages: 1, limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
        .png({ compressionLevel: 1 })
        .toBuffer({ resolveWithObject: true });
      pages.push({
        pageNumber,
        image: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        width: info.width,
        height: info.height,
      });
    } catch (err) {
      const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return fileFailure('INVALID_ARGUMENT', `Bad ${kind} data on page ${pageNumber}: ${detail}`);
    }
  }
  return { ok: true, totalPages, pages };
}
