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
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** OCR worker threads; two single-threaded workers beat one two-threaded worker on 2 cores. */
  OCR_WORKERS: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  /** onnxruntime intra-op threads per worker. */
  OCR_THREADS: Type.Integer({ minimum: 1, maximum: 64, default: 1 }),
  /** Images waiting for a worker before new ones are refused as overloaded. */
  OCR_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 100000, default: 64 }),
  /** Load the OCR models when the server starts (in the background) instead of on the first image. */
  OCR_WARM: Type.Boolean({ default: true }),
  /** Fetch `image.source.imageUri` over http(s) (SSRF-guarded). Off by default. */
  IMAGE_URI_FETCH: Type.Boolean({ default: false }),
  /** Comma-separated addresses/CIDRs that `imageUri` fetching may reach although private (intranet image stores, tests). */
  IMAGE_URI_ALLOWED_ADDRESSES: Type.String({ default: '', pattern: '^[0-9a-fA-F:./, ]*$' }),
  /** Default `quota.requestsPerMinute` for a newly enabled api. */
  DEFAULT_REQUESTS_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
  /** How long a node trusts a cached API key before re-reading the store: the cross-node bound for revocation (0 = no cache). */
  KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 60000, default: 5000 }),
  /** How long in-flight requests may run after SIGTERM before the process exits anyway. */
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 60000 }),
  /** After SIGTERM, `/readyz` answers 503 for this long (load balancers stop routing) before the server stops accepting. */
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, default: 5000 }),
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
  readonly trustProxy: boolean;
  readonly ocr: {
    readonly workers: number;
    readonly threads: number;
    readonly queueMax: number;
    readonly warm: boolean;
    readonly imageUriFetch: boolean;
    readonly imageUriAllowedAddresses: readonly string[];
  };
  readonly defaultRequestsPerMinute: number;
  readonly keyCacheTtlMs: number;
  readonly shutdownGraceMs: number;
  readonly shutdownDrainMs: number;
  /** The private operations port (metrics, API docs); undefined = they stay on `port`. */
  readonly admin?: { readonly port: number; readonly host: string };
}

export type Env = Record<string, string | undefined>;

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
    trustProxy: e.TRUST_PROXY,
    ocr: Object.freeze({
      workers: e.OCR_WORKERS,
      threads: e.OCR_THREADS,
      queueMax: e.OCR_QUEUE_MAX,
      warm: e.OCR_WARM,
      imageUriFetch: e.IMAGE_URI_FETCH,
      imageUriAllowedAddresses: e.IMAGE_URI_ALLOWED_ADDRESSES.split(',').map((a) => a.trim()).filter(Boolean),
    }),
    defaultRequestsPerMinute: e.DEFAULT_REQUESTS_PER_MINUTE,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    ...(e.ADMIN_PORT !== undefined ? { admin: Object.freeze({ port: e.ADMIN_PORT, host: e.ADMIN_HOST ?? e.HOST }) } : {}),
  });
}
