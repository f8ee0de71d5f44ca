import net from 'node:net';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Every setting Legible reads, in one schema. `loadConfig(process.env)` is called once (in `main.ts`
 * or the CLI) and the frozen result is passed down; nothing else reads `process.env`.
 */
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  DATA_DIR: Type.String({ default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^(postgres|postgresql|sqlite)://' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: Type.String({ default: 'legible:', maxLength: 100 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** HMAC pepper for credential hashes. Every node of a deployment must share it. */
  SECRET_PEPPER: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * Which peers may set the client address through `X-Forwarded-For`: `false`, the number of proxy
   * hops in front of the node (`1` behind one load balancer), or the proxies' addresses/CIDRs. Never
   * `true`: that takes the leftmost entry, which the client writes (docs/decisions.md "TRUST_PROXY").
   */
  TRUST_PROXY: Type.String({ default: 'false', pattern: '^(false|[0-9]{1,2}|[0-9a-fA-F:./, ]+)$' }),
  /** OCR worker threads; two single-threaded workers beat one two-threaded worker on 2 cores. */
  OCR_WORKERS: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  /** onnxruntime intra-op threads per worker. */
  OCR_THREADS: Type.Integer({ minimum: 1, maximum: 64, default: 1 }),
  /**
   * `int8`: documents are read by the int8 English recognizer: within ±0.6 points of fp32 on ocr-dev,
   * faster only on CPUs with VNNI, ~0.1 GB more per node. `auto` (the default): int8 where the CPU
   * has VNNI (`recognizerPrecisionFor`, docs/decisions.md).
   */
  OCR_RECOGNIZER_PRECISION: Type.Union([Type.Literal('auto'), Type.Literal('fp32'), Type.Literal('int8')], { default: 'auto' }),
  /** Images waiting for a worker before new ones are refused as overloaded. */
  OCR_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 100000, default: 64 }),
  /** Wall-clock limit per image once a worker takes it; past it the worker is replaced and the entry answers DEADLINE_EXCEEDED. */
  OCR_IMAGE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 30000 }),
  /** Load the OCR models when the server starts (in the background) instead of on the first image. */
  OCR_WARM: Type.Boolean({ default: true }),
  /** Fetch `image.source.imageUri` over http(s) (SSRF-guarded). Off by default. */
  IMAGE_URI_FETCH: Type.Boolean({ default: false }),
  /** Bytes all `imageUri` downloads may hold at once; beyond it an image answers RESOURCE_EXHAUSTED (retry). */
  IMAGE_URI_FETCH_MAX_BYTES_IN_FLIGHT: Type.Integer({ minimum: 1024, default: 100 * 1024 * 1024 }),
  /** Time one `imageUri` download may take, its redirects included; past it the image answers DEADLINE_EXCEEDED. */
  IMAGE_URI_FETCH_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 5000 }),
  /** Redirects one `imageUri` download may follow (each hop is checked like the first). */
  IMAGE_URI_FETCH_MAX_REDIRECTS: Type.Integer({ minimum: 0, maximum: 20, default: 3 }),
  /** Comma-separated addresses/CIDRs that `imageUri` fetching may reach although private (intranet image stores, tests). */
  IMAGE_URI_ALLOWED_ADDRESSES: Type.String({ default: '', pattern: '^[0-9a-fA-F:./, ]*$' }),
  /** Default `quota.requestsPerMinute` for a newly enabled api. */
  DEFAULT_REQUESTS_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
  /** How long a node trusts a cached API key before re-reading the store: the cross-node bound for revocation (0 = no cache). */
  KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 60000, default: 5000 }),
  /** An `Idempotency-Key` claim older than this whose request never finished (its node died) may be taken over by a retry. */
  IDEMPOTENCY_LOCK_TTL_MS: Type.Integer({ minimum: 100, maximum: 3600000, default: 60000 }),
  /** How long in-flight requests may run after SIGTERM before the process exits anyway. */
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 60000 }),
  /** After SIGTERM, `/readyz` answers 503 for this long (load balancers stop routing) before the server stops accepting. */
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, default: 5000 }),
  /** Pages (frames) a PDF/TIFF/GIF may have for files:annotate and files:asyncBatchAnnotate; more is refused unread. */
  FILE_MAX_PAGES: Type.Integer({ minimum: 1, maximum: 100000, default: 2000 }),
  /** Bytes of one file read from storage (inline content is bound by the 10 MB body). */
  FILE_MAX_BYTES: Type.Integer({ minimum: 1024, default: 52428800 }),
  /** Resolution PDF pages are rendered at for OCR. */
  FILE_RENDER_DPI: Type.Integer({ minimum: 50, maximum: 600, default: 200 }),
  /** Pixels of one rendered PDF page; larger pages are rendered at a lower resolution. */
  FILE_MAX_PAGE_PIXELS: Type.Integer({ minimum: 100000, maximum: 75000000, default: 16000000 }),
  /** Bytes one PDF stream may inflate to (decompression bombs are refused before rendering). */
  FILE_MAX_STREAM_BYTES: Type.Integer({ minimum: 1048576, default: 134217728 }),
  /** Time to render the pages of one task before the document worker is stopped. */
  FILE_RENDER_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 20000 }),
  /** Worker threads rendering PDF pages and extracting TIFF/GIF frames. */
  FILE_WORKERS: Type.Integer({ minimum: 1, maximum: 16, default: 1 }),
  /** JavaScript heap of one document worker (MB). */
  FILE_WORKER_HEAP_MB: Type.Integer({ minimum: 32, maximum: 4096, default: 256 }),
  /** Where `gs://bucket/…` of Vision requests resolves: `local` (a directory, STORAGE_DIR) or `s3` (any S3-compatible store). */
  STORAGE_BACKEND: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  /** The local backend's directory (default `DATA_DIR/storage`). */
  STORAGE_DIR: Type.Optional(Type.String()),
  /** S3 backend: endpoint URL (MinIO, `https://storage.googleapis.com` with HMAC keys); empty = AWS. */
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  /** S3 backend credentials; absent = the AWS SDK's default chain (environment, profile, instance role). */
  S3_ACCESS_KEY_ID: Type.Optional(Type.String()),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
  S3_FORCE_PATH_STYLE: Type.Boolean({ default: true }),
  /** Prepended to Legible bucket names in the S3 store. */
  S3_BUCKET_PREFIX: Type.String({ default: '', pattern: '^[a-z0-9.-]*$' }),
  /** Run asyncBatchAnnotate jobs on this node (every node sharing a database may). */
  OPERATIONS_RUNNER: Type.Boolean({ default: true }),
  /** How long a node holds a job without renewing it: after a crash, the job resumes elsewhere this much later. */
  OPERATION_LEASE_MS: Type.Integer({ minimum: 500, default: 30000 }),
  /** How often an idle node looks for queued jobs. */
  OPERATION_POLL_MS: Type.Integer({ minimum: 50, default: 1000 }),
  /** Finished operations (and their status) are deleted this many hours after they end. Output files are not. */
  OPERATION_RETENTION_HOURS: Type.Integer({ minimum: 1, default: 720 }),
  /** Whether `operations/{id}:cancel` is honoured. */
  OPERATIONS_ALLOW_CANCEL: Type.Boolean({ default: true }),
  /** When set, `/metrics`, `/docs` and `/openapi.json` are served on this port only (not on PORT). */
  ADMIN_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** Listen address of ADMIN_PORT; defaults to HOST. */
  ADMIN_HOST: Type.Optional(Type.String()),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** `sqlite://<file>` (the embedded default, under `dataDir`) or `postgres://…`. */
  readonly databaseUrl: string;
  readonly redisUrl?: string;
  readonly redisKeyPrefix: string;
  readonly logLevel: string;
  readonly secretPepper?: string;
  /** Fastify's `trustProxy`: off, a hop count, or the trusted proxies' addresses/CIDRs. */
  readonly trustProxy: false | number | readonly string[];
  readonly ocr: {
    readonly workers: number;
    readonly threads: number;
    readonly recognizerPrecision: 'auto' | 'fp32' | 'int8';
    readonly queueMax: number;
    readonly imageTimeoutMs: number;
    readonly warm: boolean;
    readonly imageUriFetch: boolean;
    readonly imageUriAllowedAddresses: readonly string[];
    readonly imageUriFetchMaxBytesInFlight: number;
    readonly imageUriFetchTimeoutMs: number;
    readonly imageUriFetchMaxRedirects: number;
  };
  readonly defaultRequestsPerMinute: number;
  readonly keyCacheTtlMs: number;
  readonly idempotencyLockTtlMs: number;
  readonly shutdownGraceMs: number;
  readonly shutdownDrainMs: number;
  readonly files: {
    readonly maxPages: number;
    readonly maxBytes: number;
    readonly renderDpi: number;
    readonly maxPagePixels: number;
    readonly maxStreamBytes: number;
    readonly renderTimeoutMs: number;
    readonly workers: number;
    readonly workerHeapMb: number;
  };
  readonly storage: {
    readonly backend: 'local' | 's3';
    readonly dir: string;
    readonly s3: {
      readonly endpoint?: string;
      readonly region: string;
      readonly accessKeyId?: string;
      readonly secretAccessKey?: string;
      readonly forcePathStyle: boolean;
      readonly bucketPrefix: string;
    };
  };
  readonly operations: {
    readonly runner: boolean;
    readonly leaseMs: number;
    readonly pollMs: number;
    readonly retentionMs: number;
    readonly allowCancel: boolean;
  };
  /** The private operations port (metrics, API docs); undefined = they stay on `port`. */
  readonly admin?: { readonly port: number; readonly host: string };
}

export type Env = Record<string, string | undefined>;

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

function parseTrustProxy(value: string): Config['trustProxy'] {
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (entries.length === 0 || bad.length > 0) {
    throw new Error(
      `Invalid configuration:\n  TRUST_PROXY: expected false, a hop count or proxy addresses/CIDRs (got ${JSON.stringify(value)})`,
    );
  }
  return Object.freeze(entries);
}

/** Validates the environment once; throws an Error naming every bad variable. */
export function loadConfig(env: Env): Config {
  const known = Object.fromEntries(
    Object.keys(EnvSchema.properties)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const converted = Value.Convert(EnvSchema, Value.Default(EnvSchema, known));
  const errors = [...Value.Errors(EnvSchema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.path.slice(1)}: ${e.message} (got ${JSON.stringify(e.value)})`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = converted as Static<typeof EnvSchema>;
  const dataDir = path.resolve(e.DATA_DIR);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite://${path.join(dataDir, 'legible.db')}`,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    logLevel: e.LOG_LEVEL,
    secretPepper: e.SECRET_PEPPER,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    ocr: Object.freeze({
      workers: e.OCR_WORKERS,
      threads: e.OCR_THREADS,
      recognizerPrecision: e.OCR_RECOGNIZER_PRECISION,
      queueMax: e.OCR_QUEUE_MAX,
      imageTimeoutMs: e.OCR_IMAGE_TIMEOUT_MS,
      warm: e.OCR_WARM,
      imageUriFetch: e.IMAGE_URI_FETCH,
      imageUriAllowedAddresses: e.IMAGE_URI_ALLOWED_ADDRESSES.split(',')
        .map((a) => a.trim())
        .filter(Boolean),
      imageUriFetchMaxBytesInFlight: e.IMAGE_URI_FETCH_MAX_BYTES_IN_FLIGHT,
      imageUriFetchTimeoutMs: e.IMAGE_URI_FETCH_TIMEOUT_MS,
      imageUriFetchMaxRedirects: e.IMAGE_URI_FETCH_MAX_REDIRECTS,
    }),
    defaultRequestsPerMinute: e.DEFAULT_REQUESTS_PER_MINUTE,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    idempotencyLockTtlMs: e.IDEMPOTENCY_LOCK_TTL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    files: Object.freeze({
      maxPages: e.FILE_MAX_PAGES,
      maxBytes: e.FILE_MAX_BYTES,
      renderDpi: e.FILE_RENDER_DPI,
      maxPagePixels: e.FILE_MAX_PAGE_PIXELS,
      maxStreamBytes: e.FILE_MAX_STREAM_BYTES,
      renderTimeoutMs: e.FILE_RENDER_TIMEOUT_MS,
      workers: e.FILE_WORKERS,
      workerHeapMb: e.FILE_WORKER_HEAP_MB,
    }),
    storage: Object.freeze({
      backend: e.STORAGE_BACKEND,
      dir: path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'storage')),
      s3: Object.freeze({
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
        bucketPrefix: e.S3_BUCKET_PREFIX,
      }),
    }),
    operations: Object.freeze({
      runner: e.OPERATIONS_RUNNER,
      leaseMs: e.OPERATION_LEASE_MS,
      pollMs: e.OPERATION_POLL_MS,
      retentionMs: e.OPERATION_RETENTION_HOURS * 3_600_000,
      allowCancel: e.OPERATIONS_ALLOW_CANCEL,
    }),
    ...(e.ADMIN_PORT !== undefined ? { admin: Object.freeze({ port: e.ADMIN_PORT, host: e.ADMIN_HOST ?? e.HOST }) } : {}),
  });
}
