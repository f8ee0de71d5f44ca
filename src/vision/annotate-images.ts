import { AppError, GRPC_CODES } from '../errors.ts';
import type { OcrEngine } from '../ocr/engine/ocr-engine.ts';
import type { OcrOutcome } from '../ocr/ocr-types.ts';
import { resolveImageBytes, type ImageSourcePolicy } from './image-source.ts';
import { checkLanguageHint } from './supported-languages.ts';
import { planFeatures, unsupportedFeaturesMessage } from './vision-features.ts';
import type { AnnotateImageRequest, BatchAnnotateImagesRequest } from './vision-request-schema.ts';
import { annotateImageResponse, type JsonObject, type SerializeOptions } from './vision-response.ts';

export interface AnnotateDeps {
  /** `reserve` admits a request's images all at once; `run` takes one place (file pages, async jobs). */
  engine: Pick<OcrEngine, 'run' | 'reserve'>;
  imageSource: ImageSourcePolicy;
}

export interface AnnotateOptions {
  enumEncoding: SerializeOptions['enumEncoding'];
}

/** Seconds a client should wait after the engine's queue was full (Google's client retries 503). */
const OVERLOADED_RETRY_AFTER_SECONDS = 2;

export interface Status {
  code: number;
  message: string;
}

const entryError = (status: Status): JsonObject => ({ error: status });

/** Engine failures → per-image status; OVERLOADED is not per-image: it fails the whole request. */
function overloaded(): AppError {
  return new AppError('UNAVAILABLE', 'The service is overloaded: too many images are waiting for text recognition. Retry later.', {
    retryAfter: OVERLOADED_RETRY_AFTER_SECONDS,
  });
}

function failureStatus(outcome: Extract<OcrOutcome, { ok: false }>): Status {
  switch (outcome.code) {
    case 'IMAGE_EMPTY':
    case 'IMAGE_UNSUPPORTED':
    case 'IMAGE_CORRUPT':
      return { code: GRPC_CODES.INVALID_ARGUMENT, message: 'Bad image data.' };
    case 'IMAGE_TOO_LARGE':
      return { code: GRPC_CODES.INVALID_ARGUMENT, message: outcome.message };
    case 'TIMEOUT':
      return { code: GRPC_CODES.DEADLINE_EXCEEDED, message: 'Text recognition timed out for this image.' };
    case 'OVERLOADED':
      throw overloaded();
    default:
      return { code: GRPC_CODES.INTERNAL, message: 'Internal error while reading this image.' };
  }
}

/** What an entry asks besides its image: shared by images:annotate and every page of files:annotate. */
export type AnnotateAsk = Pick<AnnotateImageRequest, 'features' | 'imageContext'>;

/** The entry-level refusals (no features, only unserved features, a bad language hint), or undefined. */
export function askError(ask: AnnotateAsk): Status | undefined {
  const plan = planFeatures(ask.features ?? []);
  if ((ask.features ?? []).length === 0)
    return { code: GRPC_CODES.INVALID_ARGUMENT, message: 'Arguments must specify image and features.' };
  if (plan.mode === undefined) return { code: GRPC_CODES.UNIMPLEMENTED, message: unsupportedFeaturesMessage(plan.unsupported) };
  for (const hint of ask.imageContext?.languageHints ?? []) {
    const check = checkLanguageHint(hint);
    if (!check.ok) return { code: GRPC_CODES.INVALID_ARGUMENT, message: check.message };
  }
  return undefined;
}

/**
 * Reads one image already in hand (a sent image, or a page rendered from a file) and answers its
 * `AnnotateImageResponse`; `askError(ask)` must have passed. Throws only AppError UNAVAILABLE.
 */
export async function annotateImageBytes(
  bytes: Uint8Array,
  ask: AnnotateAsk,
  deps: { engine: Pick<OcrEngine, 'run'> },
  opts: AnnotateOptions & Pick<SerializeOptions, 'filePage'>,
): Promise<JsonObject> {
  const plan = planFeatures(ask.features ?? []);
  const outcome = await deps.engine.run(bytes, { mode: plan.mode ?? 'text', languageHints: ask.imageContext?.languageHints ?? [] });
  if (!outcome.ok) return entryError(failureStatus(outcome));

  const confidence = plan.mode === 'document' || ask.imageContext?.textDetectionParams?.enableTextDetectionConfidenceScore === true;
  const { textAnnotations, fullTextAnnotation } = annotateImageResponse(outcome.value, {
    confidence,
    enumEncoding: opts.enumEncoding,
    filePage: opts.filePage,
  });
  // Field-number order: textAnnotations (5), error (9), fullTextAnnotation (12). Annotations that
  // were filled in stay valid next to the error for the features we do not serve (proto comment).
  return {
    ...(textAnnotations ? { textAnnotations } : {}),
    ...(plan.unsupported.length > 0
      ? { error: { code: GRPC_CODES.UNIMPLEMENTED, message: unsupportedFeaturesMessage(plan.unsupported) } }
      : {}),
    ...(fullTextAnnotation ? { fullTextAnnotation } : {}),
  };
}

/** One `AnnotateImageResponse`; throws only AppError UNAVAILABLE (engine overloaded). */
export async function annotateOne(entry: AnnotateImageRequest, deps: AnnotateDeps, opts: AnnotateOptions): Promise<JsonObject> {
  if (!entry.image) return entryError({ code: GRPC_CODES.INVALID_ARGUMENT, message: 'Arguments must specify image and features.' });
  const refused = askError(entry);
  if (refused) return entryError(refused);
  const image = await resolveImageBytes(entry.image, deps.imageSource);
  if (!image.ok) return entryError({ code: image.code, message: image.message });
  return annotateImageBytes(image.bytes, entry, deps, opts);
}

/**
 * BatchAnnotateImages: one response per request entry, in request order. A bad entry fails only
 * itself (HTTP 200 with that entry's `error`), as Google does. A request is admitted whole or refused
 * whole: the engine places for all its images are reserved before any `imageUri` is fetched or any
 * image decoded, and when they do not fit it is answered 503 UNAVAILABLE + Retry-After at once.
 */
export async function annotateImages(
  request: BatchAnnotateImagesRequest,
  deps: AnnotateDeps,
  opts: AnnotateOptions,
): Promise<{ responses: JsonObject[] }> {
  const refusals = request.requests.map((entry) =>
    entry.image ? askError(entry) : { code: GRPC_CODES.INVALID_ARGUMENT, message: 'Arguments must specify image and features.' },
  );
  const admitted = refusals.filter((r) => r === undefined).length;
  const places = admitted > 0 ? deps.engine.reserve(admitted) : undefined;
  if (admitted > 0 && places === undefined) throw overloaded();
  const readOne = async (entry: AnnotateImageRequest): Promise<JsonObject> => {
    const image = await resolveImageBytes(entry.image!, deps.imageSource);
    if (!image.ok) return entryError({ code: image.code, message: image.message });
    return annotateImageBytes(image.bytes, entry, { engine: places! }, opts);
  };
  try {
    const settled = await Promise.allSettled(request.requests.map((entry, i) => (refusals[i] ? entryError(refusals[i]) : readOne(entry))));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return { responses: settled.map((s) => (s as PromiseFulfilledResult<JsonObject>).value) };
  } finally {
    places?.release();
  }
}
