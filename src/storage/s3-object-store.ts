import crypto from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
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
const LIST_HEAD_CONCURRENCY = 16;

/** A missing key or bucket (HEAD answers a bare 404, so the SDK names it NotFound or NoSuchKey/NoSuchBucket). */
const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.name === 'NoSuchBucket' || e?.$metadata?.httpStatusCode === 404;
};

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
    ...(opts.accessKeyId && opts.secretAccessKey
      ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
      : {}),
  });
  const real = (bucket: string) => `${opts.bucketPrefix}${bucket}`;

  async function ownerOf(bucket: string): Promise<string | undefined> {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: real(bucket), Key: OWNER_KEY }));
      return (JSON.parse(await res.Body!.transformToString()) as { projectId: string }).projectId;
    } catch (err) {
      // A store that cannot be reached, or refuses the credentials, is an error, not a missing bucket.
      if (notFound(err)) return undefined;
      throw err;
    }
  }
  const owns = async (projectId: string, bucket: string) => (await ownerOf(bucket)) === projectId;

  const toObject = (
    bucket: string,
    name: string,
    meta: { size: number; contentType?: string; metadata?: Record<string, string>; modified?: Date },
  ): StoredObject => ({
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

  async function headObject(bucket: string, name: string): Promise<StoredObject | undefined> {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket: real(bucket), Key: name }));
      return toObject(bucket, name, {
        size: res.ContentLength ?? 0,
        contentType: res.ContentType,
        metadata: res.Metadata,
        modified: res.LastModified,
      });
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  return {
    kind: 's3',
    async createBucket(projectId, bucket) {
      const existing = await ownerOf(bucket);
      if (existing) return existing === projectId ? 'exists' : 'taken';
      await client.send(new CreateBucketCommand({ Bucket: real(bucket) })).catch((err: { name?: string }) => {
        if (err?.name !== 'BucketAlreadyOwnedByYou' && err?.name !== 'BucketAlreadyExists') throw err;
      });
      try {
        await client.send(
          new PutObjectCommand({ Bucket: real(bucket), Key: OWNER_KEY, Body: JSON.stringify({ projectId }), IfNoneMatch: '*' }),
        );
        return 'created';
      } catch (err) {
        // 412: another node wrote the marker first (stores without conditional writes never answer it).
        if ((err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode !== 412) throw err;
        return (await owns(projectId, bucket)) ? 'exists' : 'taken';
      }
    },
    hasBucket: owns,
    async put(projectId, bucket, name, bytes, contentType) {
      if (!(await owns(projectId, bucket))) throw new Error(`bucket ${bucket} is not the project's`);
      const metadata = { crc32c: crc32cBase64(bytes), md5: crypto.createHash('md5').update(bytes).digest('base64') };
      await client.send(
        new PutObjectCommand({ Bucket: real(bucket), Key: name, Body: bytes, ContentType: contentType, Metadata: metadata }),
      );
      return toObject(bucket, name, { size: bytes.byteLength, contentType, metadata, modified: new Date() });
    },
    async head(projectId, bucket, name) {
      if (name === OWNER_KEY || !(await owns(projectId, bucket))) return undefined;
      return headObject(bucket, name);
    },
    async get(projectId, bucket, name, maxBytes) {
      const object = await this.head(projectId, bucket, name);
      if (!object) return undefined;
      if (object.size > maxBytes) return 'too-large';
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: real(bucket), Key: name }));
        return { object, bytes: await res.Body!.transformToByteArray() };
      } catch (err) {
        // Deleted between HEAD and GET.
        if (notFound(err)) return undefined;
        throw err;
      }
    },
    async list(projectId, bucket, prefix) {
      if (!(await owns(projectId, bucket))) return [];
      const out: StoredObject[] = [];
      let token: string | undefined;
      do {
        const res = await client.send(new ListObjectsV2Command({ Bucket: real(bucket), Prefix: prefix, ContinuationToken: token }));
        // ListObjectsV2 carries neither content type nor user metadata (crc32c, md5), which Cloud
        // Storage's list returns and its clients check, so each listed object is read with HEAD.
        const names = (res.Contents ?? []).map((item) => item.Key).filter((key): key is string => key !== undefined && key !== OWNER_KEY);
        for (let i = 0; i < names.length; i += LIST_HEAD_CONCURRENCY) {
          const heads = await Promise.all(names.slice(i, i + LIST_HEAD_CONCURRENCY).map((name) => headObject(bucket, name)));
          out.push(...heads.filter((o): o is StoredObject => o !== undefined));
        }
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async delete(projectId, bucket, name) {
      // S3's DeleteObject succeeds for a missing key too; Cloud Storage answers 404, so look first.
      if (name === OWNER_KEY || !(await owns(projectId, bucket)) || !(await headObject(bucket, name))) return false;
      await client.send(new DeleteObjectCommand({ Bucket: real(bucket), Key: name }));
      return true;
    },
  };
}
