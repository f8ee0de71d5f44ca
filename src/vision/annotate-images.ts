import { AppError, GRPC_CODES } from '../errors.ts';
import type { OcrEngine, OcrReservation } from '../ocr/ocr-engine.ts';
import type { OcrMode, OcrOutcome } from '../ocr/ocr-types.ts';
import { resolveImageBytes, type ImageSourcePolicy } from './image-source.ts';
import { checkLanguageHint } from './supported-languages.ts';
import { planFeatures, unsupportedFeaturesMessage } from './vision-features.ts';
import type { AnnotateImageRequest, BatchAnnotateImagesRequest } from './vision-request-schema.ts';
import { annotateImageResponse, type JsonObject, type SerializeOptions } from './vision-response.ts';

export interface AnnotateDeps {
  engine: Pick<OcrEngine, 'reserve'>;
  imageSource: ImageSourcePolicy;
}

export interface AnnotateOptions {
  enumEncoding: SerializeOptions['enumEncoding'];
}

/** Seconds a client should wait after the engine's queue was full (Google's client retries 503). */
const OVERLOADED_RETRY_AFTER_SECONDS = 2;

function overloaded(): AppError {
  return new AppError('UNAVAILABLE', 'The service is overloaded: too many images are waiting for text recognition. Retry later.', {
    retryAfter: OVERLOADED_RETRY_AFTER_SECONDS,
  });
}

interface Status {
  code: number;
  message: string;
}

const entryError = (status: Status): JsonObject => ({ error: status });

/** Engine failures → per-image status; OVERLOADED is not per-image: it fails the whole request. */
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

/** An entry that will reach the engine: its places are reserved before any image is fetched or read. */
interface OcrJob {
  entry: AnnotateImageRequest;
  plan: ReturnType<typeof planFeatures> & { mode: OcrMode };
  hints: string[];
}

/** The entry's own error if it is refused without reading an image, else the job to run. */
function prepare(entry: AnnotateImageRequest): OcrJob | JsonObject {
  const plan = planFeatures(entry.features ?? []);
  if (!entry.image || (entry.features ?? []).length === 0) {
    return entryError({ code: GRPC_CODES.INVALID_ARGUMENT, message: 'Arguments must specify image and features.' });
  }
  if (plan.mode === undefined) {
    return entryError({ code: GRPC_CODES.UNIMPLEMENTED, message: unsupportedFeaturesMessage(plan.unsupported) });
  }
  const hints = entry.imageContext?.languageHints ?? [];
  for (const hint of hints) {
    const check = checkLanguageHint(hint);
    if (!check.ok) return entryError({ code: GRPC_CODES.INVALID_ARGUMENT, message: check.message });
  }
  return { entry, plan: plan as OcrJob['plan'], hints };
}

/** One `AnnotateImageResponse`, in a place already reserved; throws only AppError UNAVAILABLE. */
async function annotateOne(job: OcrJob, engine: OcrReservation, deps: AnnotateDeps, opts: AnnotateOptions): Promise<JsonObject> {
  const { entry, plan, hints } = job;
  const image = await resolveImageBytes(entry.image, deps.imageSource);
  if (!image.ok) return entryError({ code: image.code, message: image.message });

  const outcome = await engine.run(image.bytes, { mode: plan.mode, languageHints: hints });
  if (!outcome.ok) return entryError(failureStatus(outcome));

  const confidence = plan.mode === 'document' || entry.imageContext?.textDetectionParams?.enableTextDetectionConfidenceScore === true;
  const { textAnnotations, fullTextAnnotation } = annotateImageResponse(outcome.value, { confidence, enumEncoding: opts.enumEncoding });
  // Field-number order: textAnnotations (5), error (9), fullTextAnnotation (12). Annotations that
  // were filled in stay valid next to the error for the features we do not serve (proto comment).
  return {
    ...(textAnnotations ? { textAnnotations } : {}),
    ...(plan.unsupported.length > 0 ? { error: { code: GRPC_CODES.UNIMPLEMENTED, message: unsupportedFeaturesMessage(plan.unsupported) } } : {}),
    ...(fullTextAnnotation ? { fullTextAnnotation } : {}),
  };
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
  const prepared = request.requests.map(prepare);
  const jobs = prepared.filter((p): p is OcrJob => 'plan' in p && 'hints' in p && 'entry' in p);
  const places = jobs.length > 0 ? deps.engine.reserve(jobs.length) : undefined;
  if (jobs.length > 0 && places === undefined) throw overloaded();
  try {
    const settled = await Promise.allSettled(prepared.map((p) => (jobs.includes(p as OcrJob) ? annotateOne(p as OcrJob, places!, deps, opts) : p)));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return { responses: settled.map((s) => (s as PromiseFulfilledResult<JsonObject>).value) };
  } finally {
    places?.release();
  }
}
