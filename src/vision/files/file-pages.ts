import { GRPC_CODES } from '../../errors.ts';

/** The file types `files:annotate` reads (InputConfig.mime_type: "Wildcards are not supported"). */
export const FILE_MIME_TYPES = ['application/pdf', 'image/tiff', 'image/gif'] as const;
export type FileMimeType = (typeof FILE_MIME_TYPES)[number];

/** Google's limit for a synchronous BatchAnnotateFiles request (AnnotateFileRequest.pages). */
export const MAX_SYNC_PAGES = 5;

/** Budgets checked before a page is rendered or a frame decoded (config.ts FILE_*). */
export interface FileLimits {
  /** Pages (frames) a file may declare at all; more and it is refused unread. */
  maxPages: number;
  /** Render resolution for PDF pages, dots per inch. */
  renderDpi: number;
  /** Pixels of one rendered page; larger pages are rendered at a lower resolution. */
  maxPagePixels: number;
  /** Longest side of a PDF page in points (the PDF spec's implementation limit is 14 400). */
  maxPageSidePoints: number;
  /** Bytes one PDF stream may inflate to (decompression bombs). */
  maxStreamBytes: number;
}

/** A page ready for the OCR engine: encoded image bytes and the size Google reports for it. */
export interface RenderedPage {
  pageNumber: number;
  image: Uint8Array;
  /** PDF: points (1/72 in) as displayed (rotation applied); TIFF/GIF: pixels. */
  width: number;
  height: number;
}

/** A per-file failure: a google.rpc.Code number and a message meant for the caller. */
export interface FileFailure {
  code: number;
  message: string;
}

export type PagesOutcome = { ok: true; totalPages: number; pages: RenderedPage[] } | { ok: false; error: FileFailure };

export const fileFailure = (code: keyof typeof GRPC_CODES, message: string): { ok: false; error: FileFailure } => ({
  ok: false,
  error: { code: GRPC_CODES[code], message },
});

/**
 * AnnotateFileRequest.pages → page numbers: 1-based, negative counts from the end (-1 = last),
 * empty = the first `defaultCount` pages. A page outside the file is an error, not silently dropped.
 */
export function resolvePages(
  requested: readonly number[] | undefined,
  totalPages: number,
  defaultCount: number,
): { ok: true; pages: number[] } | { ok: false; error: FileFailure } {
  if (!requested || requested.length === 0) {
    return { ok: true, pages: Array.from({ length: Math.min(defaultCount, totalPages) }, (_, i) => i + 1) };
  }
  const pages: number[] = [];
  for (const p of requested) {
    const page = p < 0 ? totalPages + 1 + p : p;
    if (p === 0 || page < 1 || page > totalPages) {
      return fileFailure(
        'INVALID_ARGUMENT',
        `Invalid page number ${p}: the file has ${totalPages} page${totalPages === 1 ? '' : 's'} (pages are 1-based; -1 is the last).`,
      );
    }
    pages.push(page);
  }
  return { ok: true, pages };
}

/** PDF 1.7 (ISO 32000-1) Annex C: the largest page an implementation must support, 200 in a side. */
export const PDF_MAX_PAGE_SIDE_POINTS = 14_400;
