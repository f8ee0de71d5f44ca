import { rectQuad } from '../ocr/geometry.ts';
import type { BreakType, DetectedLanguage, OcrResult, OcrSymbol, Point, Quad } from '../ocr/ocr-types.ts';

/**
 * `OcrResult` → Google's `AnnotateImageResponse` JSON, as Google's front end prints it
 * (proto3 JSON, GOOGLE-VISION.md §1.4–1.7): fields in field-number order, defaults omitted
 * (a vertex with y = 0 is `{"x": 28}`, no `isPrefix: false`, no empty lists), enums as names or,
 * when the client asked with `$alt=json;enum-encoding=int`, as numbers.
 */
export interface SerializeOptions {
  /** DOCUMENT_TEXT_DETECTION always carries confidences; TEXT_DETECTION only when asked. */
  confidence: boolean;
  enumEncoding: 'name' | 'int';
  /**
   * A page produced from a file (files:annotate): boxes as `normalizedVertices` (0..1 of the page,
   * as Google answers for PDF/TIFF/GIF pages) and the page's own size reported (points for PDF).
   */
  filePage?: { width: number; height: number };
}

export type JsonObject = { [key: string]: unknown };

/** What a box needs: the serialize options and the pixel size of the image it was found in. */
type BoxOptions = SerializeOptions & { imageSize?: { width: number; height: number } };

/** google.cloud.vision.v1.TextAnnotation.DetectedBreak.BreakType (text_annotation.proto L51-70). */
const BREAK_TYPES: Record<BreakType, number> = { SPACE: 1, SURE_SPACE: 2, EOL_SURE_SPACE: 3, HYPHEN: 4, LINE_BREAK: 5 };
/** google.cloud.vision.v1.Block.BlockType: only TEXT is produced. */
const BLOCK_TYPE_TEXT = { name: 'TEXT', number: 1 } as const;

/** Adds `key: value` unless value is a proto3 default (0, "", empty list, absent message). */
function put(target: JsonObject, key: string, value: unknown): JsonObject {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return target;
  if (Array.isArray(value) && value.length === 0) return target;
  target[key] = value;
  return target;
}

/** int32 pixels; `Object.is(-0)` would print as 0 anyway, but it is also a default to drop. */
function vertex(p: Point): JsonObject {
  const x = Math.round(p.x) || 0;
  const y = Math.round(p.y) || 0;
  return put(put({}, 'x', x), 'y', y);
}

/** float 0..1 of the image side. */
function normalizedVertex(p: Point, width: number, height: number): JsonObject {
  const n = (v: number, side: number) => Number(Math.fround(Math.min(1, Math.max(0, v / side))).toPrecision(7));
  return put(put({}, 'x', n(p.x, width)), 'y', n(p.y, height));
}

function boundingPoly(
  quad: Quad,
  opts: Pick<SerializeOptions, 'filePage'> & { imageSize?: { width: number; height: number } },
): JsonObject {
  if (opts.filePage && opts.imageSize) {
    const { width, height } = opts.imageSize;
    return { normalizedVertices: quad.map((p) => normalizedVertex(p, width, height)) };
  }
  return { vertices: quad.map(vertex) };
}

/** float confidences, clamped to 0..1 and printed with float32-like precision. */
function score(value: number): number {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
  return Number(Math.fround(clamped).toPrecision(7));
}

function property(languages: DetectedLanguage[], breakType: BreakType | undefined, opts: SerializeOptions): JsonObject | undefined {
  const detectedLanguages = languages.map((l) => put({ languageCode: l.languageCode }, 'confidence', score(l.confidence)));
  const out = put({}, 'detectedLanguages', detectedLanguages);
  if (breakType) out.detectedBreak = { type: opts.enumEncoding === 'int' ? BREAK_TYPES[breakType] : breakType };
  return Object.keys(out).length > 0 ? out : undefined;
}

function withConfidence(target: JsonObject, value: number, opts: SerializeOptions): JsonObject {
  return opts.confidence ? put(target, 'confidence', score(value)) : target;
}

function symbol(s: OcrSymbol, opts: BoxOptions): JsonObject {
  const out = put({}, 'property', property([], s.break, opts));
  out.boundingBox = boundingPoly(s.box, opts);
  put(out, 'text', s.text);
  return withConfidence(out, s.confidence, opts);
}

/** The `fullTextAnnotation` (TextAnnotation → Page → Block → Paragraph → Word → Symbol). */
export function fullTextAnnotation(result: OcrResult, serialize: SerializeOptions): JsonObject {
  const page = result.page;
  const opts: BoxOptions = { ...serialize, imageSize: { width: page.width, height: page.height } };
  const blocks = page.blocks.map((b) => {
    const block = put({}, 'property', property(b.languages, undefined, opts));
    block.boundingBox = boundingPoly(b.box, opts);
    put(
      block,
      'paragraphs',
      b.paragraphs.map((p) => {
        const paragraph = put({}, 'property', property(p.languages, undefined, opts));
        paragraph.boundingBox = boundingPoly(p.box, opts);
        put(
          paragraph,
          'words',
          p.words.map((w) => {
            const word = put({}, 'property', property(w.languages, undefined, opts));
            word.boundingBox = boundingPoly(w.box, opts);
            put(
              word,
              'symbols',
              w.symbols.map((s) => symbol(s, opts)),
            );
            return withConfidence(word, w.confidence, opts);
          }),
        );
        return withConfidence(paragraph, p.confidence, opts);
      }),
    );
    block.blockType = opts.enumEncoding === 'int' ? BLOCK_TYPE_TEXT.number : BLOCK_TYPE_TEXT.name;
    return withConfidence(block, b.confidence, opts);
  });
  const pageJson = put({}, 'property', property(page.languages, undefined, opts));
  // Page.width/height: pixels for images, the page's own size for a file page (points for PDF).
  const size = opts.filePage ?? page;
  put(pageJson, 'width', Math.round(size.width));
  put(pageJson, 'height', Math.round(size.height));
  put(pageJson, 'blocks', blocks);
  withConfidence(pageJson, page.confidence, opts);
  return put({ pages: [pageJson] }, 'text', result.text);
}

/** The axis-aligned box around every word: `textAnnotations[0].boundingPoly`. */
function enclosingQuad(quads: Quad[]): Quad {
  const xs = quads.flatMap((q) => q.map((p) => p.x));
  const ys = quads.flatMap((q) => q.map((p) => p.y));
  return rectQuad(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
}

/** `textAnnotations`: the whole text with its locale and enclosing polygon, then one entry per word. */
export function textAnnotations(result: OcrResult, serialize: Pick<SerializeOptions, 'filePage'> = {}): JsonObject[] {
  const opts = { ...serialize, imageSize: { width: result.page.width, height: result.page.height } };
  const words = result.page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.words));
  if (words.length === 0) return [];
  const first = put({}, 'locale', result.locale);
  put(first, 'description', result.text);
  first.boundingPoly = boundingPoly(enclosingQuad(words.map((w) => w.box)), opts);
  return [first, ...words.map((w) => ({ description: w.text, boundingPoly: boundingPoly(w.box, opts) }))];
}

/**
 * One `AnnotateImageResponse` for a read image: `{}` when there is no text (Google's answer for
 * an image without text: no annotations and no error).
 */
export function annotateImageResponse(result: OcrResult, opts: SerializeOptions): JsonObject {
  const annotations = textAnnotations(result, opts);
  if (annotations.length === 0) return {};
  return { textAnnotations: annotations, fullTextAnnotation: fullTextAnnotation(result, opts) };
}
