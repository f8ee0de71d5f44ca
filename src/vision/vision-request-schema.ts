import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Google Cloud Vision v1 `BatchAnnotateImagesRequest`, field for field
 * (googleapis `google/cloud/vision/v1/image_annotator.proto`, copy in ../shared/protos), with the
 * lowerCamelCase JSON names. This schema is the one description of the request: the OpenAPI
 * document shows it and `readProtoJson` (proto-json-reader.ts) validates against it, applying the
 * proto3 JSON rules Fastify's validator cannot express (snake_case names, enums by number, base64).
 * Annotations the reader uses: `x-proto-type` (full message / enum name, for Google's messages),
 * `x-proto-enum` (name → number) and `format: 'byte'` (base64 bytes, decoded to a Uint8Array).
 */

export const message = <T extends TSchema>(protoType: string, schema: T): T =>
  ({ ...schema, additionalProperties: false, 'x-proto-type': protoType }) as T;

function protoEnum<const V extends Record<string, number>>(protoType: string, values: V, description: string) {
  return Type.Unsafe<keyof V & string>({
    type: 'string',
    enum: Object.keys(values),
    description: `${description} Names or numbers are accepted.`,
    'x-proto-type': protoType,
    'x-proto-enum': values,
  });
}

export const int32 = (description?: string) => Type.Integer({ format: 'int32', minimum: -(2 ** 31), maximum: 2 ** 31 - 1, description });
const float = () => Type.Number({ format: 'float' });

/** Decoded bytes after reading; standard or URL-safe base64, padded or not, on the wire. */
export const Bytes = (description: string) => Type.Unsafe<Uint8Array>({ type: 'string', format: 'byte', description });

/** `google.cloud.vision.v1.Feature.Type` (image_annotator.proto L173-220). */
export const FEATURE_TYPES = {
  TYPE_UNSPECIFIED: 0,
  FACE_DETECTION: 1,
  LANDMARK_DETECTION: 2,
  LOGO_DETECTION: 3,
  LABEL_DETECTION: 4,
  TEXT_DETECTION: 5,
  SAFE_SEARCH_DETECTION: 6,
  IMAGE_PROPERTIES: 7,
  CROP_HINTS: 9,
  WEB_DETECTION: 10,
  DOCUMENT_TEXT_DETECTION: 11,
  PRODUCT_SEARCH: 12,
  OBJECT_LOCALIZATION: 19,
} as const;

export type FeatureType = keyof typeof FEATURE_TYPES;

const LatLng = message(
  'google.type.LatLng',
  Type.Object({ latitude: Type.Optional(Type.Number({ format: 'double' })), longitude: Type.Optional(Type.Number({ format: 'double' })) }),
);

const Vertex = message('google.cloud.vision.v1.Vertex', Type.Object({ x: Type.Optional(int32()), y: Type.Optional(int32()) }));
const NormalizedVertex = message(
  'google.cloud.vision.v1.NormalizedVertex',
  Type.Object({ x: Type.Optional(float()), y: Type.Optional(float()) }),
);
const BoundingPoly = message(
  'google.cloud.vision.v1.BoundingPoly',
  Type.Object({
    vertices: Type.Optional(Type.Array(Vertex)),
    normalizedVertices: Type.Optional(Type.Array(NormalizedVertex)),
  }),
);

export const ImageSourceSchema = message(
  'google.cloud.vision.v1.ImageSource',
  Type.Object({
    gcsImageUri: Type.Optional(Type.String({ description: 'Use imageUri instead. `gs://` is not served by Legible.' })),
    imageUri: Type.Optional(Type.String({ description: 'http(s) URL, fetched only when the server enables IMAGE_URI_FETCH.' })),
  }),
);

export const ImageSchema = message(
  'google.cloud.vision.v1.Image',
  Type.Object({
    content: Type.Optional(Bytes('The image file bytes, base64. Takes precedence over `source`.')),
    source: Type.Optional(ImageSourceSchema),
  }),
);

export const FeatureSchema = message(
  'google.cloud.vision.v1.Feature',
  Type.Object({
    type: Type.Optional(
      protoEnum(
        'google.cloud.vision.v1.Feature.Type',
        FEATURE_TYPES,
        'TEXT_DETECTION and DOCUMENT_TEXT_DETECTION are served; others answer UNIMPLEMENTED in the entry.',
      ),
    ),
    maxResults: Type.Optional(int32('Does not apply to text detection.')),
    model: Type.Optional(Type.String({ description: '`builtin/stable`, `builtin/latest` or `builtin/weekly`: all run the same engine.' })),
  }),
);

/** The `features` field of every annotate request message (image, file, async file): at most 32. */
export const FeaturesField = Type.Optional(Type.Array(FeatureSchema, { maxItems: 32 }));

const ProductSearchParams = message(
  'google.cloud.vision.v1.ProductSearchParams',
  Type.Object({
    boundingPoly: Type.Optional(BoundingPoly),
    productSet: Type.Optional(Type.String()),
    productCategories: Type.Optional(Type.Array(Type.String())),
    filter: Type.Optional(Type.String()),
  }),
);

export const ImageContextSchema = message(
  'google.cloud.vision.v1.ImageContext',
  Type.Object({
    latLongRect: Type.Optional(
      message('google.cloud.vision.v1.LatLongRect', Type.Object({ minLatLng: Type.Optional(LatLng), maxLatLng: Type.Optional(LatLng) })),
    ),
    languageHints: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32, description: 'BCP-47 tags; empty means auto-detect.' }),
    ),
    cropHintsParams: Type.Optional(
      message('google.cloud.vision.v1.CropHintsParams', Type.Object({ aspectRatios: Type.Optional(Type.Array(float())) })),
    ),
    productSearchParams: Type.Optional(ProductSearchParams),
    webDetectionParams: Type.Optional(
      message('google.cloud.vision.v1.WebDetectionParams', Type.Object({ includeGeoResults: Type.Optional(Type.Boolean()) })),
    ),
    textDetectionParams: Type.Optional(
      message(
        'google.cloud.vision.v1.TextDetectionParams',
        Type.Object({
          enableTextDetectionConfidenceScore: Type.Optional(Type.Boolean({ description: 'Adds `confidence` to TEXT_DETECTION results.' })),
          advancedOcrOptions: Type.Optional(Type.Array(Type.String())),
        }),
      ),
    ),
  }),
);

export const AnnotateImageRequestSchema = message(
  'google.cloud.vision.v1.AnnotateImageRequest',
  Type.Object({
    image: Type.Optional(ImageSchema),
    features: FeaturesField,
    imageContext: Type.Optional(ImageContextSchema),
  }),
);

/** API.md §5: at most 16 images per request (Google's limit too). */
export const MAX_IMAGES_PER_REQUEST = 16;

export const BatchAnnotateImagesRequestSchema = message(
  'google.cloud.vision.v1.BatchAnnotateImagesRequest',
  Type.Object({
    requests: Type.Array(AnnotateImageRequestSchema, { minItems: 1, maxItems: MAX_IMAGES_PER_REQUEST }),
    parent: Type.Optional(Type.String({ description: 'Accepted and ignored (Google: `projects/P/locations/L`).' })),
    labels: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Accepted and ignored.' })),
  }),
);

export type BatchAnnotateImagesRequest = Static<typeof BatchAnnotateImagesRequestSchema>;
export type AnnotateImageRequest = Static<typeof AnnotateImageRequestSchema>;
export type VisionImage = Static<typeof ImageSchema>;

/**
 * Google's system parameters (Vision discovery document `parameters`, and `$alt` as the client
 * libraries send it: `$alt=json;enum-encoding=int`). Accepted; `key` is a credential, `$alt`'s
 * `enum-encoding=int` and `prettyPrint` shape the response, the rest are ignored.
 */
export const SystemParametersSchema = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'API key (prefer the `X-Goog-Api-Key` header: query strings end up in logs).' })),
    alt: Type.Optional(Type.Union([Type.Literal('json')], { description: 'Only `json` is served.' })),
    $alt: Type.Optional(
      Type.String({
        pattern: '^json(;enum-encoding=(int|json|string))?$',
        description: '`json;enum-encoding=int` asks for enums as numbers.',
      }),
    ),
    prettyPrint: Type.Optional(Type.Boolean({ description: 'Indent the JSON response.' })),
    fields: Type.Optional(Type.String({ description: 'Accepted; partial responses are not applied.' })),
    '$.xgafv': Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('2')])),
    quotaUser: Type.Optional(Type.String()),
    callback: Type.Optional(Type.String()),
    access_token: Type.Optional(Type.String()),
    oauth_token: Type.Optional(Type.String()),
    uploadType: Type.Optional(Type.String()),
    upload_protocol: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export type SystemParameters = Static<typeof SystemParametersSchema>;
