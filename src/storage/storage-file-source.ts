import { GRPC_CODES } from '../errors.ts';
import type { FileSourceReader } from '../vision/files/annotate-files.ts';
import { parseGsUri, type ObjectStore } from './object-store.ts';

/** `inputConfig.gcsSource.uri` read from the object store, as the caller's project. */
export function storageFileSource(store: ObjectStore): FileSourceReader {
  return {
    async read(projectId, uri, maxBytes) {
      const parsed = parseGsUri(uri);
      if (!parsed?.name)
        return {
          ok: false,
          error: {
            code: GRPC_CODES.INVALID_ARGUMENT,
            message: `Invalid gcsSource.uri ${JSON.stringify(uri)}: expected gs://bucket/object.`,
          },
        };
      const read = await store.get(projectId, parsed.bucket, parsed.name, maxBytes);
      if (read === 'too-large')
        return {
          ok: false,
          error: {
            code: GRPC_CODES.INVALID_ARGUMENT,
            message: `The file exceeds the ${Math.round(maxBytes / 1048576)} MB limit (FILE_MAX_BYTES).`,
          },
        };
      if (!read) return { ok: false, error: { code: GRPC_CODES.NOT_FOUND, message: `Error opening file: ${uri} not found.` } };
      return { ok: true, bytes: read.bytes };
    },
  };
}
