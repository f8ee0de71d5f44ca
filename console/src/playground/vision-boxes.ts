import type { AnnotateImageResponse, BoundingPoly, VisionWord } from './vision-types.ts';

export type BoxLevel = 'block' | 'paragraph' | 'word';

export interface OverlayBox {
  level: BoxLevel;
  /** SVG `points` attribute: `x,y x,y x,y x,y`. */
  points: string;
  /** The text inside (words: the word; paragraphs and blocks: their words joined). */
  text: string;
  confidence?: number;
}

/** Proto3 JSON omits zero coordinates (`{"x": 28}` means y = 0), GOOGLE-VISION.md §1.5. */
export function polyPoints(poly: BoundingPoly | undefined): string | undefined {
  const vertices = poly?.vertices;
  if (!vertices || vertices.length < 3) return undefined;
  return vertices.map((v) => `${v.x ?? 0},${v.y ?? 0}`).join(' ');
}

export function wordText(word: VisionWord): string {
  return (word.symbols ?? []).map((s) => s.text ?? '').join('');
}

/**
 * Every box to draw over the image: blocks, paragraphs (Google's closest unit to a line) and words
 * from `fullTextAnnotation`; when a response has no hierarchy, words from `textAnnotations[1..]`.
 */
export function boxesOf(response: AnnotateImageResponse | undefined): OverlayBox[] {
  if (!response) return [];
  const out: OverlayBox[] = [];
  for (const page of response.fullTextAnnotation?.pages ?? []) {
    for (const block of page.blocks ?? []) {
      const blockWords: string[] = [];
      for (const paragraph of block.paragraphs ?? []) {
        const words = (paragraph.words ?? []).map(wordText);
        blockWords.push(...words);
        for (const word of paragraph.words ?? []) {
          const points = polyPoints(word.boundingBox);
          if (points) out.push({ level: 'word', points, text: wordText(word), confidence: word.confidence });
        }
        const points = polyPoints(paragraph.boundingBox);
        if (points) out.push({ level: 'paragraph', points, text: words.join(' '), confidence: paragraph.confidence });
      }
      const points = polyPoints(block.boundingBox);
      if (points) out.push({ level: 'block', points, text: blockWords.join(' '), confidence: block.confidence });
    }
  }
  if (out.length === 0) {
    for (const t of (response.textAnnotations ?? []).slice(1)) {
      const points = polyPoints(t.boundingPoly);
      if (points) out.push({ level: 'word', points, text: t.description ?? '' });
    }
  }
  return out;
}

/** The recognised text: `fullTextAnnotation.text`, else `textAnnotations[0].description`. */
export function fullTextOf(response: AnnotateImageResponse | undefined): string {
  return response?.fullTextAnnotation?.text ?? response?.textAnnotations?.[0]?.description ?? '';
}

/** The detected language: `textAnnotations[0].locale`, else the page's first detected language. */
export function localeOf(response: AnnotateImageResponse | undefined): string | undefined {
  return response?.textAnnotations?.[0]?.locale ?? response?.fullTextAnnotation?.pages?.[0]?.property?.detectedLanguages?.[0]?.languageCode;
}
