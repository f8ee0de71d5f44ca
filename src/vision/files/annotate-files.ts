import { GRPC_CODES } from '../../errors.ts';
import { annotateImageBytes, askError, type AnnotateDeps, type AnnotateOptions, type Status } from '../annotate-images.ts';
import type { JsonObject } from '../vision-response.ts';
import type { DocumentRenderer } from './document-renderer.ts';
import { FILE_MIME_TYPES, MAX_SYNC_PAGES, type FileMimeType, type RenderedPage } from './file-pages.ts';
import type { AnnotateFileRequest, InputConfig } from './file-request-schema.ts';

/** Where `inputConfig.gcsSource.uri` is read from: the storage layer, scoped to the caller's project. */
export interface FileSourceReader {
  read(projectId: string, uri: string, maxBytes: number): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; error: Status }>;
}

export interface AnnotateFilesDeps {
  engine: AnnotateDeps['engine'];
  documents: DocumentRenderer;
  /** Absent: `gcsSource` is refused (no storage configured). */
  files?: FileSourceReader;
  maxFileBytes: number;
}

/** The `inputConfig` echoed in an AnnotateFileResponse: never the (large) content itself. */
export function echoInputConfig(input: InputConfig | undefined): JsonObject {
  const echo: JsonObject = {};
  if (input?.gcsSource?.uri) echo.gcsSource = { uri: input.gcsSource.uri };
  if (input?.mimeType) echo.mimeType = input.mimeType;
  return echo;
}

export type FileBytes = { ok: true; bytes: Uint8Array; mimeType: FileMimeType } | { ok: false; error: Status };

/** The file's bytes and type, or the per-file error. */
export async function resolveFileBytes(
  input: InputConfig | undefined,
  projectId: string,
  deps: Pick<AnnotateFilesDeps, 'files' | 'maxFileBytes'>,
): Promise<FileBytes> {
  const mimeType = input?.mimeType;
  if (!mimeType || !(FILE_MIME_TYPES as readonly string[]).includes(mimeType)) {
    return {
      ok: false,
      error: {
        code: GRPC_CODES.INVALID_ARGUMENT,
        message: `Unsupported inputConfig.mimeType ${JSON.stringify(mimeType ?? '')}: use one of ${FILE_MIME_TYPES.join(', ')}.`,
      },
    };
  }
  let bytes: Uint8Array;
  if (input?.content) {
    bytes = input.content;
  } else if (input?.gcsSource?.uri) {
    if (!deps.files)
      return {
        ok: false,
        error: { code: GRPC_CODES.FAILED_PRECONDITION, message: 'This server has no storage configured for inputConfig.gcsSource.' },
      };
    const read = await deps.files.read(projectId, input.gcsSource.uri, deps.maxFileBytes);
    if (!read.ok) return read;
    bytes = read.bytes;
  } else {
    return {
      ok: false,
      error: { code: GRPC_CODES.INVALID_ARGUMENT, message: 'Arguments must specify inputConfig.content or inputConfig.gcsSource.uri.' },
    };
  }
  if (bytes.byteLength > deps.maxFileBytes) {
    return {
      ok: false,
      error: {
        code: GRPC_CODES.INVALID_ARGUMENT,
        message: `The file exceeds the ${Math.round(deps.maxFileBytes / 1048576)} MB limit (FILE_MAX_BYTES).`,
      },
    };
  }
  return { ok: true, bytes, mimeType: mimeType as FileMimeType };
}

/** One page's AnnotateImageResponse, with `context` (field 21, last) naming its file and page. */
export async function annotateRenderedPage(
  page: RenderedPage,
  ask: AnnotateFileRequest,
  uri: string | undefined,
  deps: Pick<AnnotateFilesDeps, 'engine'>,
  opts: AnnotateOptions,
): Promise<JsonObject> {
  const response = await annotateImageBytes(page.image, ask, deps, { ...opts, filePage: { width: page.width, height: page.height } });
  return { ...response, context: { ...(uri ? { uri } : {}), pageNumber: page.pageNumber } };
}

/**
 * One AnnotateFileRequest (files:annotate): the requested pages (at most 5; empty = the first 5)
 * rendered in the document workers, each read by the OCR engine like an image, answered in
 * Google's AnnotateFileResponse. A bad file fails only itself (`error`, no `responses`).
 * Throws only AppError UNAVAILABLE (engine overloaded).
 */
export async function annotateFile(
  request: AnnotateFileRequest,
  projectId: string,
  deps: AnnotateFilesDeps,
  opts: AnnotateOptions,
): Promise<{ response: JsonObject; pages: number }> {
  const inputConfig = echoInputConfig(request.inputConfig);
  const fail = (error: Status) => ({ response: { inputConfig, error }, pages: 0 });
  const refused = askError(request);
  if (refused) return fail(refused);
  const file = await resolveFileBytes(request.inputConfig, projectId, deps);
  if (!file.ok) return fail(file.error);
  const rendered = await deps.documents.pages(file.mimeType, file.bytes, request.pages, MAX_SYNC_PAGES);
  if (!rendered.ok) return fail(rendered.error);
  const uri = request.inputConfig?.gcsSource?.uri;
  const responses = await Promise.all(rendered.pages.map((page) => annotateRenderedPage(page, request, uri, deps, opts)));
  return { response: { inputConfig, responses, totalPages: rendered.totalPages }, pages: responses.length };
}
