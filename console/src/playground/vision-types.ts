import type * as Vision from '../../../src/vision/vision-response-schema.ts';

/**
 * Google Vision's response shapes, derived from the server's schema of what it answers
 * (`vision-response-schema.ts`), read defensively: proto3 JSON omits defaults, so every field may be absent.
 */
type Loose<T> = T extends readonly (infer U)[] ? Loose<U>[] : T extends object ? { [K in keyof T]?: Loose<T[K]> } : T;

export type BoundingPoly = Loose<Vision.BoundingPoly>;
export type VisionWord = Loose<Vision.VisionWord>;
export type VisionPage = Loose<Vision.VisionPage>;
export type AnnotateImageResponse = Loose<Vision.AnnotateImageResponse>;
export type BatchAnnotateImagesResponse = Loose<Vision.BatchAnnotateImagesResponse>;
export type BatchAnnotateFilesResponse = Loose<Vision.BatchAnnotateFilesResponse>;

export type DetectionType = 'TEXT_DETECTION' | 'DOCUMENT_TEXT_DETECTION';
