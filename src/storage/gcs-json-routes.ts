import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { keyRequestContext, type KeyVerifier } from '../api-keys/key-verifier.ts';
import { AppError } from '../errors.ts';
import { errorHandler } from '../http/error-handler.ts';
import { parseMultipartRelated } from './multipart-related.ts';
import { BUCKET_NAME, validObjectName, type ObjectStore, type StoredObject } from './object-store.ts';

export interface GcsJsonRoutesOptions {
  store: ObjectStore;
  keyVerifier: KeyVerifier;
  maxObjectBytes: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The project whose buckets a storage request may touch (the API key's). */
    storageProject?: string;
  }
}

/** Cloud Storage's object resource (https://cloud.google.com/storage/docs/json_api/v1/objects). */
function objectResource(request: FastifyRequest, o: StoredObject): Record<string, unknown> {
  const base = `${request.protocol}://${request.host}`;
  const encoded = encodeURIComponent(o.name);
  return {
    kind: 'storage#object',
    id: `${o.bucket}/${o.name}/${o.generation}`,
    selfLink: `${base}/storage/v1/b/${o.bucket}/o/${encoded}`,
    mediaLink: `${base}/download/storage/v1/b/${o.bucket}/o/${encoded}?generation=${o.generation}&alt=media`,
    name: o.name,
    bucket: o.bucket,
    generation: o.generation,
    metageneration: '1',
    contentType: o.contentType,
    storageClass: 'STANDARD',
    size: String(o.size),
    md5Hash: o.md5Hash,
    crc32c: o.crc32c,
    etag: o.md5Hash,
    timeCreated: o.created,
    updated: o.updated,
    timeStorageClassUpdated: o.created,
  };
}

const bucketParam = (request: FastifyRequest) => {
  const bucket = (request.params as { bucket: string }).bucket;
  if (!BUCKET_NAME.test(bucket)) throw new AppError('INVALID_ARGUMENT', `Invalid bucket name: ${JSON.stringify(bucket)}.`);
  return bucket;
};

/** The object name from the rest of the path (`/o/{name}`, slashes percent-encoded by clients). */
function objectParam(request: FastifyRequest): string {
  const raw = (request.params as { '*': string })['*'];
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new AppError('INVALID_ARGUMENT', 'Invalid object name encoding.');
  }
  if (!validObjectName(name)) throw new AppError('INVALID_ARGUMENT', `Invalid object name: ${JSON.stringify(name)}.`);
  return name;
}

/**
 * The subset of the Cloud Storage JSON API (https://cloud.google.com/storage/docs/json_api) that
 * `@google-cloud/storage` uses to put a document in and read results out, served over the local
 * object store: create bucket, multipart and media upload, object metadata, `alt=media` download,
 * list with `prefix`, delete. The caller is an API key (`X-Goog-Api-Key`, `?key=`, or Bearer) and
 * acts on its own project's buckets only; another project's bucket answers 404.
 */
export const gcsJsonRoutes: FastifyPluginAsync<GcsJsonRoutesOptions> = async (app, opts) => {
  const { store } = opts;
  app.addHook('onRequest', async (request, reply) => {
    const outcome = await opts.keyVerifier.verify(keyRequestContext(request), 'ocr');
    if (!outcome.ok) {
      errorHandler(outcome.error, request, reply);
      return reply;
    }
    request.storageProject = outcome.key.projectId;
  });
  app.addContentTypeParser(/^multipart\/related/i, { parseAs: 'buffer', bodyLimit: opts.maxObjectBytes + 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.maxObjectBytes }, (_req, body, done) => done(null, body));

  const project = (request: FastifyRequest) => request.storageProject!;
  const notFound = (what: string) => new AppError('NOT_FOUND', `No such ${what}.`);
  const tags = ['storage'];

  app.post(
    '/storage/v1/b',
    { schema: { tags, summary: 'Create a bucket (Cloud Storage JSON API)', security: [{ apiKey: [] }] } },
    async (request, reply) => {
      const name = (request.body as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || !BUCKET_NAME.test(name))
        throw new AppError('INVALID_ARGUMENT', 'Invalid bucket name: 3–63 characters, lowercase letters, digits, - and _.');
      const created = await store.createBucket(project(request), name);
      if (created !== 'created') throw new AppError('ALREADY_EXISTS', `The bucket ${name} already exists.`);
      void reply.code(200);
      return {
        kind: 'storage#bucket',
        id: name,
        name,
        projectNumber: project(request),
        location: 'LOCAL',
        storageClass: 'STANDARD',
        timeCreated: new Date().toISOString(),
      };
    },
  );

  app.get('/storage/v1/b/:bucket', { schema: { hide: true } }, async (request) => {
    const bucket = bucketParam(request);
    if (!(await store.hasBucket(project(request), bucket))) throw notFound('bucket');
    return { kind: 'storage#bucket', id: bucket, name: bucket, location: 'LOCAL', storageClass: 'STANDARD' };
  });

  const upload = async (request: FastifyRequest, reply: FastifyReply) => {
    const bucket = bucketParam(request);
    if (!(await store.hasBucket(project(request), bucket))) throw notFound('bucket');
    const query = request.query as { uploadType?: string; name?: string };
    let name = query.name;
    let media: Buffer;
    let contentType = request.headers['content-type'] ?? 'application/octet-stream';
    if (query.uploadType === 'multipart') {
      const parsed = parseMultipartRelated(request.headers['content-type'], request.body as Buffer);
      if (!parsed)
        throw new AppError('INVALID_ARGUMENT', 'Invalid multipart/related upload: expected a JSON metadata part and a media part.');
      name = typeof parsed.metadata.name === 'string' ? parsed.metadata.name : name;
      contentType =
        typeof parsed.metadata.contentType === 'string' ? parsed.metadata.contentType : (parsed.mediaType ?? 'application/octet-stream');
      media = parsed.media;
    } else if (query.uploadType === 'media') {
      media = Buffer.isBuffer(request.body) ? request.body : Buffer.from(JSON.stringify(request.body ?? ''));
    } else {
      throw new AppError(
        'UNIMPLEMENTED',
        `uploadType=${query.uploadType ?? ''} is not served; use multipart or media (with @google-cloud/storage: { resumable: false }).`,
      );
    }
    if (!name || !validObjectName(name)) throw new AppError('INVALID_ARGUMENT', 'The object needs a valid name.');
    const object = await store.put(project(request), bucket, name, media, contentType);
    void reply.code(200);
    return objectResource(request, object);
  };
  app.post(
    '/upload/storage/v1/b/:bucket/o',
    { schema: { tags, summary: 'Upload an object (uploadType=multipart or media)', security: [{ apiKey: [] }] } },
    upload,
  );

  const getObject = async (request: FastifyRequest, reply: FastifyReply) => {
    const bucket = bucketParam(request);
    const name = objectParam(request);
    if ((request.query as { alt?: string }).alt !== 'media') {
      const object = await store.head(project(request), bucket, name);
      if (!object) throw notFound('object');
      return objectResource(request, object);
    }
    const read = await store.get(project(request), bucket, name, Number.MAX_SAFE_INTEGER);
    if (!read || read === 'too-large') throw notFound('object');
    void reply
      .header('content-type', read.object.contentType)
      .header('x-goog-hash', `crc32c=${read.object.crc32c},md5=${read.object.md5Hash}`)
      .header('x-goog-generation', read.object.generation)
      .header('x-goog-stored-content-length', String(read.object.size));
    return reply.send(Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength));
  };
  app.get(
    '/storage/v1/b/:bucket/o/*',
    { schema: { tags, summary: 'Object metadata, or its bytes with alt=media', security: [{ apiKey: [] }] } },
    getObject,
  );
  app.get('/download/storage/v1/b/:bucket/o/*', { schema: { hide: true } }, getObject);

  app.delete(
    '/storage/v1/b/:bucket/o/*',
    { schema: { tags, summary: 'Delete an object', security: [{ apiKey: [] }] } },
    async (request, reply) => {
      if (!(await store.delete(project(request), bucketParam(request), objectParam(request)))) throw notFound('object');
      return reply.code(204).send();
    },
  );

  app.get(
    '/storage/v1/b/:bucket/o',
    { schema: { tags, summary: 'List objects (prefix, delimiter, maxResults, pageToken)', security: [{ apiKey: [] }] } },
    async (request) => {
      const bucket = bucketParam(request);
      if (!(await store.hasBucket(project(request), bucket))) throw notFound('bucket');
      const q = request.query as { prefix?: string; delimiter?: string; maxResults?: string; pageToken?: string };
      const prefix = q.prefix ?? '';
      let objects = await store.list(project(request), bucket, prefix);
      const prefixes = new Set<string>();
      if (q.delimiter) {
        objects = objects.filter((o) => {
          const rest = o.name.slice(prefix.length);
          const cut = rest.indexOf(q.delimiter!);
          if (cut < 0) return true;
          prefixes.add(prefix + rest.slice(0, cut + q.delimiter!.length));
          return false;
        });
      }
      const after = q.pageToken ? Buffer.from(q.pageToken, 'base64url').toString() : '';
      const from = objects.filter((o) => o.name > after);
      const max = Math.min(Math.max(Number(q.maxResults ?? 1000) || 1000, 1), 1000);
      const page = from.slice(0, max);
      return {
        kind: 'storage#objects',
        ...(prefixes.size > 0 ? { prefixes: [...prefixes].sort() } : {}),
        ...(page.length > 0 ? { items: page.map((o) => objectResource(request, o)) } : {}),
        ...(from.length > max ? { nextPageToken: Buffer.from(page[page.length - 1].name).toString('base64url') } : {}),
      };
    },
  );
};
