/**
 * Where `gs://bucket/object` URIs of Vision requests resolve: a local directory under DATA_DIR (the
 * embedded default) or an S3-compatible store (STORAGE_BACKEND=s3). Buckets belong to a project;
 * every call names the project acting, and a bucket of another project does not exist for it.
 */
export interface StoredObject {
  bucket: string;
  name: string;
  size: number;
  contentType: string;
  /** base64, big-endian CRC-32C (Cloud Storage's `crc32c`). */
  crc32c: string;
  /** base64 MD5 (Cloud Storage's `md5Hash`). */
  md5Hash: string;
  /** Milliseconds since the epoch of the write: Cloud Storage's `generation`. */
  generation: string;
  updated: string;
  created: string;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Creates a bucket for the project: 'exists' if it is the project's already, 'taken' if another's. */
  createBucket(projectId: string, bucket: string): Promise<'created' | 'exists' | 'taken'>;
  /** True when the bucket exists and belongs to the project. */
  hasBucket(projectId: string, bucket: string): Promise<boolean>;
  /** Writes the whole object at once: readers see the old or the new bytes, never a part. */
  put(projectId: string, bucket: string, name: string, bytes: Uint8Array, contentType: string): Promise<StoredObject>;
  head(projectId: string, bucket: string, name: string): Promise<StoredObject | undefined>;
  /** undefined when absent; a file over `maxBytes` is refused before it is read whole. */
  get(
    projectId: string,
    bucket: string,
    name: string,
    maxBytes: number,
  ): Promise<{ object: StoredObject; bytes: Uint8Array } | 'too-large' | undefined>;
  /** Objects whose name starts with `prefix`, in name order. */
  list(projectId: string, bucket: string, prefix: string): Promise<StoredObject[]>;
  delete(projectId: string, bucket: string, name: string): Promise<boolean>;
}

/** Cloud Storage naming (https://cloud.google.com/storage/docs/buckets#naming), the dotless form. */
export const BUCKET_NAME = /^[a-z0-9][a-z0-9_-]{1,61}[a-z0-9]$/;

/** `gs://bucket/path` → parts; undefined when it is not a gs:// URI with a valid bucket. */
export function parseGsUri(uri: string): { bucket: string; name: string } | undefined {
  const match = /^gs:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!match || !BUCKET_NAME.test(match[1])) return undefined;
  return { bucket: match[1], name: match[2] };
}

/** Object names: Cloud Storage's rules (1–1024 bytes of UTF-8, no CR/LF), plus no `.`/`..` path parts. */
export function validObjectName(name: string): boolean {
  return (
    name.length > 0 && Buffer.byteLength(name) <= 1024 && !/[\r\n\0]/.test(name) && !name.split('/').some((p) => p === '.' || p === '..')
  );
}
