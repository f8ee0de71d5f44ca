import { type Static, Type, type TSchema } from '@sinclair/typebox';

/**
 * Google Cloud Vision v1 `BatchAnnotateImagesResponse` as Legible answers it (vision-response.ts
 * builds it; image_annotator.proto and text_annotation.proto in ../shared/protos): the fields we
 * fill, proto3 JSON, enums as names or (with `$alt=json;enum-encoding=int`) numbers. Documentation
 * only: the routes serialize the builder's output as is, and tests check that output against this.
 */
const closed = <T extends TSchema>(schema: T, description?: string): T =>
  ({ ...schema, additionalProperties: false, ...(description ? { description } : {}) }) as T;
const int32 = () => Type.Integer({ format: 'int32' });
const confidence = () => Type.Optional(Type.Number({ format: 'float', minimum: 0, maximum: 1 }));
const protoEnum = (names: string[]) => Type.Union([Type.String({ enum: names }), Type.Integer()]);

const Vertex = closed(Type.Object({ x: Type.Optional(int32()), y: Type.Optional(int32()) }), 'Pixels; 0 is omitted (proto3 default).');
const NormalizedVertex = closed(
  Type.Object({ x: Type.Optional(Type.Number({ format: 'float' })), y: Type.Optional(Type.Number({ format: 'float' })) }),
  'Fractions of the page (0..1); file pages (`files:annotate`) carry these instead of pixels.',
);
const BoundingPoly = closed(
  Type.Object({ vertices: Type.Optional(Type.Array(Vertex)), normalizedVertices: Type.Optional(Type.Array(NormalizedVertex)) }),
);
const TextProperty = closed(
  Type.Object({
    detectedLanguages: Type.Optional(Type.Array(closed(Type.Object({ languageCode: Type.String(), confidence: confidence() })))),
    detectedBreak: Type.Optional(
      closed(
        Type.Object({
          type: protoEnum(['UNKNOWN', 'SPACE', 'SURE_SPACE', 'EOL_SURE_SPACE', 'HYPHEN', 'LINE_BREAK']),
          isPrefix: Type.Optional(Type.Boolean()),
        }),
      ),
    ),
  }),
);
// biome-ignore lint/suspicious/noShadowRestrictedNames: Google's message is named Symbol.
const Symbol = closed(
  Type.Object({ property: Type.Optional(TextProperty), boundingBox: BoundingPoly, text: Type.String(), confidence: confidence() }),
);
const Word = closed(
  Type.Object({ property: Type.Optional(TextProperty), boundingBox: BoundingPoly, symbols: Type.Array(Symbol), confidence: confidence() }),
);
const Paragraph = closed(
  Type.Object({ property: Type.Optional(TextProperty), boundingBox: BoundingPoly, words: Type.Array(Word), confidence: confidence() }),
);
const Block = closed(
  Type.Object({
    property: Type.Optional(TextProperty),
    boundingBox: BoundingPoly,
    paragraphs: Type.Array(Paragraph),
    blockType: protoEnum(['UNKNOWN', 'TEXT', 'TABLE', 'PICTURE', 'RULER', 'BARCODE']),
    confidence: confidence(),
  }),
);
const Page = closed(
  Type.Object({
    property: Type.Optional(TextProperty),
    width: Type.Optional(int32()),
    height: Type.Optional(int32()),
    blocks: Type.Optional(Type.Array(Block)),
    confidence: confidence(),
  }),
);

export const TextAnnotationSchema = closed(
  Type.Object({ pages: Type.Array(Page), text: Type.Optional(Type.String()) }),
  'google.cloud.vision.v1.TextAnnotation: pages → blocks → paragraphs → words → symbols.',
);

const EntityAnnotation = closed(
  Type.Object({
    locale: Type.Optional(Type.String({ description: 'BCP-47; on the first entry only.' })),
    description: Type.String({ description: 'The whole text (first entry) or one word.' }),
    boundingPoly: BoundingPoly,
  }),
);

/** google.rpc.Status of one image: `code` is a google.rpc.Code number (3 = INVALID_ARGUMENT, 12 = UNIMPLEMENTED…). */
const Status = closed(Type.Object({ code: Type.Integer(), message: Type.String() }));

export const AnnotateImageResponseSchema = closed(
  Type.Object({
    textAnnotations: Type.Optional(Type.Array(EntityAnnotation)),
    error: Type.Optional(Status),
    fullTextAnnotation: Type.Optional(TextAnnotationSchema),
    context: Type.Optional(closed(Type.Object({ uri: Type.Optional(Type.String()), pageNumber: Type.Optional(int32()) }))),
  }),
  'google.cloud.vision.v1.AnnotateImageResponse. `{}` for an image without text; `error` for an image that failed (the others still succeed).',
);

export const BatchAnnotateImagesResponseSchema = closed(
  Type.Object({
    responses: Type.Array(AnnotateImageResponseSchema, { description: 'One per request entry, in request order.' }),
  }),
  'google.cloud.vision.v1.BatchAnnotateImagesResponse.',
);

export const AnnotateFileResponseSchema = closed(
  Type.Object({
    responses: Type.Optional(Type.Array(AnnotateImageResponseSchema, { description: 'One per page read, with `context.pageNumber`.' })),
    totalPages: Type.Optional(int32()),
    error: Type.Optional(Status),
  }),
  'google.cloud.vision.v1.AnnotateFileResponse (the fields Legible fills; `inputConfig` is echoed as sent).',
);

export const BatchAnnotateFilesResponseSchema = closed(
  Type.Object({ responses: Type.Array(AnnotateFileResponseSchema) }),
  'google.cloud.vision.v1.BatchAnnotateFilesResponse.',
);

export type BoundingPoly = Static<typeof BoundingPoly>;
export type VisionWord = Static<typeof Word>;
export type VisionPage = Static<typeof Page>;
export type AnnotateImageResponse = Static<typeof AnnotateImageResponseSchema>;
export type BatchAnnotateImagesResponse = Static<typeof BatchAnnotateImagesResponseSchema>;
export type BatchAnnotateFilesResponse = Static<typeof BatchAnnotateFilesResponseSchema>;
