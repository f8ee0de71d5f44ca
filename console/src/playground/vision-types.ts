/** The parts of Google Vision's `BatchAnnotateImagesResponse` the playground reads (GOOGLE-VISION.md §1.4). */
export interface Vertex {
  x?: number;
  y?: number;
}

export interface BoundingPoly {
  vertices?: Vertex[];
}

interface WithBox {
  boundingBox?: BoundingPoly;
  confidence?: number;
}

export interface VisionWord extends WithBox {
  symbols?: Array<WithBox & { text?: string; property?: { detectedBreak?: { type?: string } } }>;
}

export interface VisionParagraph extends WithBox {
  words?: VisionWord[];
}

export interface VisionBlock extends WithBox {
  paragraphs?: VisionParagraph[];
  blockType?: string;
}

export interface VisionPage {
  width?: number;
  height?: number;
  blocks?: VisionBlock[];
  confidence?: number;
  property?: { detectedLanguages?: Array<{ languageCode: string; confidence?: number }> };
}

export interface AnnotateImageResponse {
  textAnnotations?: Array<{ description?: string; locale?: string; boundingPoly?: BoundingPoly }>;
  fullTextAnnotation?: { text?: string; pages?: VisionPage[] };
  error?: { code?: number; message?: string };
}

export interface BatchAnnotateImagesResponse {
  responses?: AnnotateImageResponse[];
}

export type DetectionType = 'TEXT_DETECTION' | 'DOCUMENT_TEXT_DETECTION';
