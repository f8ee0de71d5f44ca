import type { AnnotateOptions } from './annotate-request.ts';
import type { AnnotateImageResponse, BoundingPoly } from './vision-types.ts';

/** Files the playground sends to `files:annotate` (pages) rather than `images:annotate`. */
const DOCUMENT_TYPES: Record<string, string> = { pdf: 'application/pdf', tif: 'image/tiff', tiff: 'image/tiff', gif: 'image/gif' };

/** `application/pdf`, `image/tiff` or `image/gif` for a PDF, TIFF or GIF (by type, else by extension); otherwise undefined. */
export function documentMimeType(file: { name: string; type: string }): string | undefined {
  if (Object.values(DOCUMENT_TYPES).includes(file.type)) return file.type;
  if (file.type) return undefined;
  return DOCUMENT_TYPES[file.name.split('.').pop()?.toLowerCase() ?? ''];
}

/** A `BatchAnnotateFilesRequest` for one page (one page per request keeps under Google's 5-page limit). */
export function annotateFileRequest(base64: string, mimeType: string, page: number, options: AnnotateOptions): unknown {
  return {
    requests: [
      {
        inputConfig: { content: base64, mimeType },
        features: [{ type: options.type }],
        pages: [page],
        ...(options.languageHints.length ? { imageContext: { languageHints: options.languageHints } } : {}),
      },
    ],
  };
}

function toPixels<P extends BoundingPoly | undefined>(poly: P, width: number, height: number): P {
  if (!poly || poly.vertices?.length || !poly.normalizedVertices) return poly;
  return { vertices: poly.normalizedVertices.map((v) => ({ x: (v.x ?? 0) * width, y: (v.y ?? 0) * height })) } as P;
}

/**
 * File pages come back with `normalizedVertices` (0..1); the overlay draws pixels, so every box is
 * scaled to the page's own size (`pages[0].width/height`: points for a PDF, pixels for TIFF/GIF).
 */
export function pageInPixels(response: AnnotateImageResponse): { response: AnnotateImageResponse; width: number; height: number } {
  const page = response.fullTextAnnotation?.pages?.[0];
  const width = page?.width || 612;
  const height = page?.height || 792;
  const scale = <T extends { boundingBox?: BoundingPoly }>(x: T): T => ({ ...x, boundingBox: toPixels(x.boundingBox, width, height) });
  const text = response.fullTextAnnotation;
  const fullTextAnnotation = text && {
    ...text,
    pages: text.pages?.map((p) => ({
      ...p,
      blocks: p.blocks?.map((b) => ({
        ...scale(b),
        paragraphs: b.paragraphs?.map((para) => ({ ...scale(para), words: para.words?.map(scale) })),
      })),
    })),
  };
  return {
    width,
    height,
    response: {
      ...response,
      textAnnotations: response.textAnnotations?.map((t) => ({ ...t, boundingPoly: toPixels(t.boundingPoly, width, height) })),
      ...(fullTextAnnotation ? { fullTextAnnotation } : {}),
    },
  };
}

/**
 * The server returns no page image, and browsers cannot draw PDF or TIFF pages without a renderer,
 * so a file page is shown as a blank white sheet of the page's size with its boxes on it.
 */
export function blankPageUrl(width: number, height: number): string {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="100%" height="100%" fill="#fff"/></svg>`)}`;
}
