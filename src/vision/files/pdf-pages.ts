import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import { fileFailure, resolvePages, type FileLimits, type PagesOutcome, type RenderedPage } from './file-pages.ts';
import { largestInflatedStream } from './pdf-stream-budget.ts';

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// PDF.js reads these from disk in Node (trailing slash required): the 14 standard fonts that PDFs
// may use without embedding them, and CMaps for CJK text.
const STANDARD_FONTS = `${path.join(pdfjsDir, 'standard_fonts')}/`;
const CMAPS = `${path.join(pdfjsDir, 'cmaps')}/`;

/** Images inside a PDF are decoded at their own size: the same 75 MP as images:annotate. */
const MAX_EMBEDDED_IMAGE_PIXELS = 75_000_000;

async function open(
  bytes: Uint8Array,
  limits: FileLimits,
): Promise<{ ok: true; pdf: PDFDocumentProxy } | Extract<PagesOutcome, { ok: false }>> {
  const streams = await largestInflatedStream(bytes, limits.maxStreamBytes);
  if (streams.tooLarge) {
    return fileFailure(
      'INVALID_ARGUMENT',
      `The PDF has a stream that inflates beyond ${Math.round(limits.maxStreamBytes / 1048576)} MB (FILE_MAX_STREAM_BYTES); it was not read.`,
    );
  }
  try {
    const pdf = await getDocument({
      // PDF.js takes ownership of (and may detach) the buffer: give it a copy.
      data: new Uint8Array(bytes),
      // Never compile code from the file (PostScript functions via `new Function`), no XFA forms,
      // no scripting: a PDF's JavaScript is never run (PDF.js only runs it in a viewer's sandbox).
      isEvalSupported: false,
      enableXfa: false,
      useSystemFonts: false,
      maxImageSize: MAX_EMBEDDED_IMAGE_PIXELS,
      standardFontDataUrl: STANDARD_FONTS,
      cMapUrl: CMAPS,
      cMapPacked: true,
      verbosity: 0,
      stopAtErrors: false,
    }).promise;
    return { ok: true, pdf };
  } catch (err) {
    const name = (err as { name?: string })?.name;
    if (name === 'PasswordException') return fileFailure('INVALID_ARGUMENT', 'The PDF is password-protected; send it without a password.');
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return fileFailure('INVALID_ARGUMENT', `Bad PDF data: ${detail}`);
  }
}

/**
 * Renders the requested pages of a PDF for OCR, after the page count, each page's size and the
 * pixel budget are checked: a page is measured (its dictionary only) before anything is drawn.
 * Runs inside the document worker (document-worker.ts), never on the server's event loop.
 */
export async function renderPdfPages(
  bytes: Uint8Array,
  requested: readonly number[] | undefined,
  defaultCount: number,
  limits: FileLimits,
  fileKey?: string,
): Promise<PagesOutcome> {
  const reuse = fileKey !== undefined && cached?.key === fileKey;
  if (!reuse) await forget();
  const opened = reuse && cached ? { ok: true as const, pdf: cached.pdf } : await open(bytes, limits);
  if (!opened.ok) return opened;
  const { pdf } = opened;
  // A job reads a long file one page per task: keep it open (parsed, scanned) between its tasks.
  if (fileKey !== undefined) cached = { key: fileKey, pdf };
  try {
    const totalPages = pdf.numPages;
    if (totalPages > limits.maxPages) {
      return fileFailure('INVALID_ARGUMENT', `The PDF has ${totalPages} pages; at most ${limits.maxPages} are read (FILE_MAX_PAGES).`);
    }
    const resolved = resolvePages(requested, totalPages, defaultCount);
    if (!resolved.ok) return resolved;
    const pages: RenderedPage[] = [];
    for (const pageNumber of resolved.pages) {
      const page = await pdf.getPage(pageNumber);
      try {
        const size = page.getViewport({ scale: 1 });
        if (!(size.width > 0 && size.height > 0) || Math.max(size.width, size.height) > limits.maxPageSidePoints) {
          return fileFailure(
            'INVALID_ARGUMENT',
            `Page ${pageNumber} of the PDF is ${Math.round(size.width)} × ${Math.round(size.height)} pt; pages up to ${limits.maxPageSidePoints} pt a side are read.`,
          );
        }
        // The OCR resolution, lowered for large pages so that one page stays within the pixel budget.
        const dpiScale = limits.renderDpi / 72;
        const budgetScale = Math.sqrt(limits.maxPagePixels / (size.width * size.height));
        const viewport = page.getViewport({ scale: Math.min(dpiScale, budgetScale) });
        const canvas = createCanvas(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
        const context = canvas.getContext('2d');
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, canvas.width, canvas.height);
        await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
        // Pixels to sharp for a fast, lossless PNG (zlib level 1): Skia's own PNG encoder took ~10× longer
        // (250–380 ms vs 20–40 ms for a 1700 × 2200 page, measured), and the OCR worker decodes either equally fast.
        const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
        const image = await sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
          raw: { width: canvas.width, height: canvas.height, channels: 4 },
        })
          .removeAlpha()
          .png({ compressionLevel: 1 })
          .toBuffer();
        pages.push({
          pageNumber,
          image: new Uint8Array(image.buffer, image.byteOffset, image.byteLength),
          width: size.width,
          height: size.height,
        });
      } finally {
        page.cleanup();
      }
    }
    return { ok: true, totalPages, pages };
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return fileFailure('INVALID_ARGUMENT', `Bad PDF data: ${detail}`);
  } finally {
    if (fileKey === undefined) await pdf.destroy();
  }
}

/** The document a job is reading page by page (one per worker thread). */
let cached: { key: string; pdf: PDFDocumentProxy } | undefined;

async function forget(): Promise<void> {
  const previous = cached;
  cached = undefined;
  await previous?.pdf.destroy().catch(() => undefined);
}
