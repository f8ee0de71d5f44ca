import { Type, type Static } from '@sinclair/typebox';
import { AnnotateImageRequestSchema, Bytes, FeaturesField, ImageContextSchema, int32, message } from '../vision-request-schema.ts';
import { MAX_SYNC_PAGES } from './file-pages.ts';

/**
 * Google Cloud Vision v1 file messages (`image_annotator.proto`: BatchAnnotateFilesRequest,
 * AsyncBatchAnnotateFilesRequest, AsyncBatchAnnotateImagesRequest and their parts), built from the
 * same pieces as `images:annotate` (vision-request-schema.ts) and read by the same proto3 JSON reader.
 */

const GcsSource = message(
  'google.cloud.vision.v1.GcsSource',
  Type.Object({
    uri: Type.Optional(
      Type.String({ maxLength: 2048, description: "`gs://bucket/object`, resolved through Legible's storage (STORAGE_BACKEND)." }),
    ),
  }),
);

const GcsDestination = message(
  'google.cloud.vision.v1.GcsDestination',
  Type.Object({
    uri: Type.Optional(
      Type.String({ maxLength: 2048, description: '`gs://bucket/prefix`: output files `{prefix}output-{a}-to-{b}.json` land under it.' }),
    ),
  }),
);

export const InputConfigSchema = message(
  'google.cloud.vision.v1.InputConfig',
  Type.Object({
    gcsSource: Type.Optional(GcsSource),
    content: Type.Optional(Bytes('The file bytes, base64 (files:annotate only).')),
    mimeType: Type.Optional(Type.String({ maxLength: 64, description: '`application/pdf`, `image/tiff` or `image/gif`.' })),
  }),
);

export const OutputConfigSchema = message(
  'google.cloud.vision.v1.OutputConfig',
  Type.Object({
    gcsDestination: Type.Optional(GcsDestination),
    batchSize: Type.Optional(int32('Responses per output file, 1–100 (default 20).')),
  }),
);

export const AnnotateFileRequestSchema = message(
  'google.cloud.vision.v1.AnnotateFileRequest',
  Type.Object({
    inputConfig: Type.Optional(InputConfigSchema),
    features: FeaturesField,
    imageContext: Type.Optional(ImageContextSchema),
    pages: Type.Optional(
      Type.Array(int32(), { maxItems: MAX_SYNC_PAGES, description: '1-based; -1 is the last page; at most 5; empty = the first 5.' }),
    ),
  }),
);

const Labels = Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Accepted and ignored.' }));
const Parent = Type.Optional(
  Type.String({ maxLength: 256, description: "`projects/P` or `projects/P/locations/L`: must be the key's project." }),
);

export const BatchAnnotateFilesRequestSchema = message(
  'google.cloud.vision.v1.BatchAnnotateFilesRequest',
  Type.Object({
    // "Right now we support only one AnnotateFileRequest in BatchAnnotateFilesRequest." (proto)
    requests: Type.Array(AnnotateFileRequestSchema, { minItems: 1, maxItems: 1 }),
    parent: Parent,
    labels: Labels,
  }),
);

export const AsyncAnnotateFileRequestSchema = message(
  'google.cloud.vision.v1.AsyncAnnotateFileRequest',
  Type.Object({
    inputConfig: Type.Optional(InputConfigSchema),
    features: FeaturesField,
    imageContext: Type.Optional(ImageContextSchema),
    outputConfig: Type.Optional(OutputConfigSchema),
  }),
);

/** Files per asyncBatchAnnotate request. */
export const MAX_ASYNC_FILES = 100;
/** Images per images:asyncBatchAnnotate request (Google's limit). */
export const MAX_ASYNC_IMAGES = 2000;

export const AsyncBatchAnnotateFilesRequestSchema = message(
  'google.cloud.vision.v1.AsyncBatchAnnotateFilesRequest',
  Type.Object({
    requests: Type.Array(AsyncAnnotateFileRequestSchema, { minItems: 1, maxItems: MAX_ASYNC_FILES }),
    parent: Parent,
    labels: Labels,
  }),
);

export const AsyncBatchAnnotateImagesRequestSchema = message(
  'google.cloud.vision.v1.AsyncBatchAnnotateImagesRequest',
  Type.Object({
    requests: Type.Array(AnnotateImageRequestSchema, { minItems: 1, maxItems: MAX_ASYNC_IMAGES }),
    outputConfig: Type.Optional(OutputConfigSchema),
    parent: Parent,
    labels: Labels,
  }),
);

export type InputConfig = Static<typeof InputConfigSchema>;
export type OutputConfig = Static<typeof OutputConfigSchema>;
export type AnnotateFileRequest = Static<typeof AnnotateFileRequestSchema>;
export type BatchAnnotateFilesRequest = Static<typeof BatchAnnotateFilesRequestSchema>;
export type AsyncAnnotateFileRequest = Static<typeof AsyncAnnotateFileRequestSchema>;
export type AsyncBatchAnnotateFilesRequest = Static<typeof AsyncBatchAnnotateFilesRequestSchema>;
export type AsyncBatchAnnotateImagesRequest = Static<typeof AsyncBatchAnnotateImagesRequestSchema>;
