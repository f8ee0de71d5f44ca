import { GRPC_CODES } from '../errors.ts';
// API.md §5 and Google's supported-files page: "Files exceeding 20MB generate an error".
import { MAX_IMAGE_BYTES } from '../ocr/decode/decode-image.ts';
import { fetchImageUri, type UriFetchPolicy } from './image-uri-fetch.ts';
import type { VisionImage } from './vision-request-schema.ts';

/**
 * The image-source policy of the server: `image.content` is always read; `image.source.imageUri`
 * only when the operator turned fetching on (IMAGE_URI_FETCH), and then only over the SSRF-safe
 * fetcher; `gs://` (Google Cloud Storage) is never served.
 */
export interface ImageSourcePolicy extends UriFetchPolicy {
  fetchEnabled: boolean;
}

export type ImageBytesOutcome = { ok: true; bytes: Uint8Array } | { ok: false; code: number; message: string };

const STORAGE_URI = /^gs:/i;

/** Bytes of one entry's image, or the per-image error (a google.rpc.Code number and message). */
export async function resolveImageBytes(image: VisionImage | undefined, policy: ImageSourcePolicy): Promise<ImageBytesOutcome> {
  const bytes = image?.content ?? (await fetchSource(image?.source?.imageUri ?? image?.source?.gcsImageUri, policy));
  if (!(bytes instanceof Uint8Array)) return bytes;
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    return { ok: false, code: GRPC_CODES.INVALID_ARGUMENT, message: `Image file exceeds the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit.` };
  }
  return { ok: true, bytes };
}

async function fetchSource(uri: string | undefined, policy: ImageSourcePolicy): Promise<Uint8Array | ImageBytesOutcome> {
  if (uri === undefined) {
    return {
      ok: false,
      code: GRPC_CODES.INVALID_ARGUMENT,
      message: 'Arguments must specify image and features: set image.content (base64 image bytes).',
    };
  }
  if (STORAGE_URI.test(uri)) {
    return {
      ok: false,
      code: GRPC_CODES.INVALID_ARGUMENT,
      message: 'gs:// (Google Cloud Storage) URIs are not served by this server; send the image bytes in image.content.',
    };
  }
  if (!policy.fetchEnabled) {
    return {
      ok: false,
      code: GRPC_CODES.PERMISSION_DENIED,
      message: 'This server does not fetch image.source.imageUri (IMAGE_URI_FETCH is off); send the image bytes in image.content.',
    };
  }
  const fetched = await fetchImageUri(uri, policy);
  return fetched.ok ? fetched.bytes : fetched;
}
