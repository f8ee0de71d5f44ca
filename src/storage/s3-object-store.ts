import crypto from 'node:crypto';
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { crc32cBase64 } from './crc32c.ts';
import type { ObjectStore, StoredObject } from './object-store.ts';

export interface S3StoreOptions {
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Prepended to every Legible bucket name, so Legible's buckets are recognisable in a shared account. */
  bucketPrefix: string;
}

/** Ownership marker: one small object per bucket naming its project. */
const OWNER_KEY = '.legible-bucket.json';

/**
 * Any S3-compatible store (AWS S3, MinIO, Cloud Storage's XML API with HMAC keys) through the AWS
 * SDK. A Legible bucket `b` is the store's bucket `{S3_BUCKET_PREFIX}b`; its project is recorded in
 * a marker object. PutObject is atomic, so a re-written batch file replaces the old one whole.
 */
export function createS3ObjectStore(opts: S3StoreOptions): ObjectStore {
  const client = new S3Client({
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    ...(opts.accessKeyId && opts.secretAccessKey ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } } : {}),
  });
  const real = (bucket: string) => `${opts.bucketPrefix}${bucket}`;

  async function ownerOf(bucket: string): Promise<string | undefined> {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: real(bucket), Key: OWNER_KEY }));
      return (JSON.parse(await res.Body!.transformToString()) as { projectId: string }).projectId;
    } catch {
      return undefined;
    }
  }
  const owns = async (projectId: string, bucket: string) => (await ownerOf(bucket)) === projectId;

  const toObject = (bucket: string, name: string, meta: { size: number; contentType?: string; metadata?: Record<string, string>; modified?: Date }): StoredObject => ({
    bucket,
    name,
    size: meta.size,
    contentType: meta.contentType ?? 'application/octet-stream',
    crc32c: meta.metadata?.crc32c ?? '',
    md5Hash: meta.metadata?.md5 ?? '',
    generation: String((meta.modified ?? new Date()).getTime() * 1000),
    updated: (meta.modified ?? new Date()).toISOString(),
    created: (meta.modified ?? new Date()).toISOString(),
  });

  return {
    kind: 's3',
    async createBucket(projectId, bucket) {
      const existing = await ownerOf(bucket);
      if (existing) return existing === projectId ? 'exists' : 'taken';
      await client.send(new CreateBucketCommand({ Bucket: real(bucket) })).catch((err: { name?: string }) => {
        if (err?.name !== 'BucketAlreadyOwnedByYou' && err?.name !== 'BucketAlreadyExists') throw err;
      });
      try {
        await client.send(new PutObjectCommand({ Bucket: real(bucket), Key: OWNER_KEY, Body: JSON.stringify({ projectId }), IfNoneMatch: '*' }));
        return 'created';
      } catch {
        return (await owns(projectId, bucket)) ? 'exists' : 'taken';
      }
    },
    hasBucket: owns,
    async put(projectId, bucket, name, bytes, contentType) {
      if (!(await owns(projectId, bucket))) throw new Error(`bucket ${bucket} is not the project's`);
      const metadata = { crc32c: crc32cBase64(bytes), md5: crypto.createHash('md5').update(bytes).digest('base64') };
      await client.send(new PutObjectCommand({ Bucket: real(bucket), Key: name, Body: bytes, ContentType: contentType, Metadata: metadata }));
      return toObject(bucket, name, { size: bytes.byteLength, contentType, metadata, modified: new Date() });
    },
    async head(projectId, bucket, name) {
      if (name === OWNER_KEY || !(await owns(projectId, bucket))) return undefined;
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: real(bucket), Key: name }));
        return toObject(bucket, name, { size: res.ContentLength ?? 0, contentType: res.ContentType, metadata: res.Metadata, modified: res.LastModified });
      } catch {
        return undefined;
      }
    },
    async get(projectId, bucket, name, maxBytes) {
      const object = await this.head(projectId, bucket, name);
      if (!object) return undefined;
      if (object.size > maxBytes) return 'too-large';
      const res = await client.send(new GetObjectCommand({ Bucket: real(bucket), Key: name }));
      return { object, bytes: await res.Body!.transformToByteArray() };
    },
    async list(projectId, bucket, prefix) {
      if (!(await owns(projectId, bucket))) return [];
      const out: StoredObject[] = [];
      let token: string | undefined;
      do {
        const res = await client.send(new ListObjectsV2Command({ Bucket: real(bucket), Prefix: prefix, ContinuationToken: token }));
        for (const item of res.Contents ?? []) {
          if (item.Key && item.Key !== OWNER_KEY) out.push(toObject(bucket, item.Key, { size: item.Size ?? 0, modified: item.LastModified }));
        }
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async delete(projectId, bucket, name) {
      if (!(await owns(projectId, bucket))) return false;
      await client.send(new DeleteObjectCommand({ Bucket: real(bucket), Key: name }));
      return true;
    },
  };
}
