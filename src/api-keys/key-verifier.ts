import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { hashSecret, parseSecret } from '../credentials/secret-format.ts';
import { bearerCredential } from '../credentials/bearer-credential.ts';
import { API_NAMES, type ApiName } from '../projects/api-catalog.ts';
import type { KeyCacheInvalidation } from '../shared/key-cache-invalidation.ts';
import { compileRestrictions, type CompiledRestrictions } from './key-restrictions.ts';
import type { KeyRestrictions } from './api-keys-schemas.ts';
import { CREDENTIALS_MISSING, KEY_EXPIRED, KEY_INVALID, NOT_AN_API_KEY, refusal, serviceRefusal, type KeyRefusal } from './key-refusals.ts';

/**
 * API-key verification for the public APIs (OCR, navigation): one call per request.
 *
 *   const outcome = await app.keyVerifier.verify(keyRequestContext(request), 'ocr');
 *   // → { ok: true, key: { keyId, projectId, accountId, api, requestsPerMinute } } | { ok: false, error: AppError }
 *
 * A refusal is returned, not thrown: throwing cost more than the whole check on the refused path.
 * Order (each a Google-style error): no credential → 401 CREDENTIALS_MISSING; malformed or bad
 * checksum → 401 API_KEY_INVALID without any store read; an account token → 401
 * ACCESS_TOKEN_TYPE_UNSUPPORTED; unknown / revoked / expired / rotated-out → 401 API_KEY_INVALID;
 * project not ACTIVE or api not ENABLED → 403 SERVICE_DISABLED; api not in the key's services →
 * 403 API_KEY_SERVICE_BLOCKED; then IP, referrer, Android and iOS restrictions → 403 API_KEY_*_BLOCKED.
 *
 * Cache: entries by a SHA-256 of the secret, bounded (`maxEntries`), each trusted for `cacheTtlMs`
 * (default 5 s, 0 disables). The peppered HMAC the store is searched by is computed on a miss only:
 * a one-shot SHA-256 costs a fraction of it, and the cache still never holds a plaintext key.
 * The repositories that change what it caches (api keys, projects, project apis) call
 * `invalidateKey`/`invalidateProject` after their transaction commits (`KeyCacheInvalidation`, wired
 * in `app.ts`), so a revocation is never served from this node's cache; other nodes hear it by NOTIFY
 * (`src/cluster/`), or within `cacheTtlMs` at worst.
 * Expiry (key and rotated-out secret) is checked against the clock on every hit.
 */
export interface KeyRequestContext {
  authorization?: string;
  apiKeyHeader?: string;
  queryKey?: string;
  ip: string;
  referer?: string;
  androidPackage?: string;
  androidCert?: string;
  iosBundleId?: string;
}

export interface VerifiedKey {
  keyId: string;
  projectId: string;
  accountId: string;
  api: string;
  requestsPerMinute: number;
}

export type KeyOutcome = { readonly ok: true; readonly key: VerifiedKey } | KeyRefusal;

export interface KeyVerifier extends KeyCacheInvalidation {
  /** Resolves the request's key for `api` (see the order above); rejects only when the store fails. */
  verify(ctx: KeyRequestContext, api: ApiName): Promise<KeyOutcome>;
  /** Empties the whole cache (cluster: on (re)connecting the invalidation listener, and while it is down). */
  invalidateAll(): void;
  /** Writes pending `lastUsedTime`s now (also runs every `lastUsedFlushMs` and on close). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface KeyVerifierDeps {
  db: Kysely<Database>;
  pepper?: string;
  /** How long a cached key is trusted without re-reading the store (the cross-node revocation bound). */
  cacheTtlMs?: number;
  maxEntries?: number;
  lastUsedFlushMs?: number;
  /** Reports a failed `lastUsedTime` flush (best effort; the next flush retries). */
  onFlushError?: (err: unknown) => void;
  /** Reports each cache lookup (for the `legible_key_cache_lookups_total` metric). */
  onCacheLookup?: (result: 'hit' | 'miss') => void;
}

interface CachedKey {
  keyId: string;
  projectId: string;
  accountId: string;
  keyExpireMs: number | null;
  secretExpireMs: number | null;
  revoked: boolean;
  apis: ReadonlyMap<string, { state: string; requestsPerMinute: number }>;
  restrictions: CompiledRestrictions;
  /** Per api, the refusal that does not depend on the request (project state, api state, services). */
  serviceRefusals: ReadonlyMap<ApiName, KeyRefusal | undefined>;
  loadedAt: number;
}

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** Reads every place a key may arrive (API.md §3) plus the headers restrictions are checked against. */
export function keyRequestContext(request: FastifyRequest): KeyRequestContext {
  const h = request.headers;
  return {
    authorization: firstString(h.authorization),
    apiKeyHeader: firstString(h['x-goog-api-key']),
    queryKey: firstString((request.query as Record<string, unknown> | null | undefined)?.key),
    ip: request.ip,
    // A browser under `Referrer-Policy: no-referrer` still sends Origin on a cross-origin call: check that instead.
    referer: firstString(h.referer) ?? firstString(h.origin),
    androidPackage: firstString(h['x-android-package']),
    androidCert: firstString(h['x-android-cert']),
    iosBundleId: firstString(h['x-ios-bundle-identifier']),
  };
}

function credentialOf(ctx: KeyRequestContext): string | undefined {
  if (ctx.authorization) return bearerCredential(ctx.authorization);
  return ctx.apiKeyHeader || ctx.queryKey || undefined;
}

const timeMs = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

export function createKeyVerifier(deps: KeyVerifierDeps): KeyVerifier {
  const { db, pepper } = deps;
  const ttlMs = deps.cacheTtlMs ?? 5000;
  const maxEntries = deps.maxEntries ?? 10_000;
  const cache = new Map<string, CachedKey>();
  // Secrets the store does not know (→ when it said so), trusted as long as cached keys: a client
  // repeating a made-up or foreign key would otherwise cost a store read per request. Kept apart
  // from `cache`, so a flood of them cannot evict real keys. Safe because a new key's secret is
  // random: nobody can have been refused with it before it existed.
  const unknown = new Map<string, number>();
  const lastUsed = new Map<string, string>();
  // Bumped by every invalidation: a load that started before one is not cached.
  let generation = 0;

  async function load(credential: string): Promise<CachedKey | undefined> {
    const row = await db
      .selectFrom('api_key_secrets as s')
      .innerJoin('api_keys as k', 'k.key_id', 's.key_id')
      .innerJoin('projects as p', 'p.project_id', 'k.project_id')
      .select([
        's.expire_time as secret_expire_time',
        'k.key_id',
        'k.project_id',
        'k.restrictions',
        'k.expire_time',
        'k.delete_time',
        'p.account_id',
        'p.state as project_state',
      ])
      .where('s.secret_hash', '=', hashSecret(credential, pepper))
      .executeTakeFirst();
    if (!row) return undefined;
    const apis = await db
      .selectFrom('project_apis')
      .select(['api', 'state', 'requests_per_minute'])
      .where('project_id', '=', row.project_id)
      .execute();
    const restrictions = compileRestrictions(JSON.parse(row.restrictions) as KeyRestrictions);
    const enabledApis = new Map(apis.map((a) => [a.api, { state: a.state, requestsPerMinute: Number(a.requests_per_minute) }]));
    const services = { projectId: row.project_id, projectState: row.project_state, apis: enabledApis, services: restrictions.services };
    return {
      keyId: row.key_id,
      projectId: row.project_id,
      accountId: row.account_id,
      keyExpireMs: timeMs(row.expire_time),
      secretExpireMs: timeMs(row.secret_expire_time),
      revoked: row.delete_time !== null,
      apis: enabledApis,
      restrictions,
      serviceRefusals: new Map(API_NAMES.map((api) => [api, serviceRefusal(services, api)])),
      loadedAt: Date.now(),
    };
  }

  /**
   * The key behind `cacheKey`, or `undefined` if the store has none: from the cache while fresh,
   * else from the store.
   */
  async function lookup(cacheKey: string, credential: string): Promise<CachedKey | undefined> {
    const now = Date.now();
    const hit = cache.get(cacheKey);
    if (hit && now - hit.loadedAt < ttlMs) {
      deps.onCacheLookup?.('hit');
      return hit;
    }
    const refusedAt = unknown.get(cacheKey);
    if (refusedAt !== undefined && now - refusedAt < ttlMs) {
      deps.onCacheLookup?.('hit');
      return undefined;
    }
    return loadIntoCache(cacheKey, credential);
  }

  async function loadIntoCache(cacheKey: string, credential: string): Promise<CachedKey | undefined> {
    deps.onCacheLookup?.('miss');
    cache.delete(cacheKey);
    unknown.delete(cacheKey);
    const startGeneration = generation;
    const entry = await load(credential);
    if (ttlMs > 0 && generation === startGeneration) {
      if (entry) remember(cache, cacheKey, entry);
      else remember(unknown, cacheKey, Date.now());
    }
    return entry;
  }

  /** Adds to a bounded map, evicting the oldest insertion when full. */
  function remember<V>(map: Map<string, V>, key: string, value: V): void {
    if (map.size >= maxEntries) map.delete(map.keys().next().value!);
    map.set(key, value);
  }

  function deleteWhere(match: (e: CachedKey) => boolean): void {
    generation += 1;
    for (const [hash, entry] of cache) if (match(entry)) cache.delete(hash);
  }

  async function flush(): Promise<void> {
    if (lastUsed.size === 0) return;
    const batch = [...lastUsed];
    lastUsed.clear();
    try {
      for (const [keyId, time] of batch) {
        await db
          .updateTable('api_keys')
          .set({ last_used_time: time })
          .where('key_id', '=', keyId)
          .where((eb) => eb.or([eb('last_used_time', 'is', null), eb('last_used_time', '<', time)]))
          .execute();
      }
    } catch (err) {
      for (const [keyId, time] of batch) if (!lastUsed.has(keyId)) lastUsed.set(keyId, time);
      deps.onFlushError?.(err);
    }
  }

  const timer = setInterval(() => void flush(), deps.lastUsedFlushMs ?? 5000);
  timer.unref();

  return {
    async verify(ctx, api) {
      const credential = credentialOf(ctx);
      if (!credential) return CREDENTIALS_MISSING;
      const parsed = parseSecret(credential);
      if (!parsed) return KEY_INVALID[api];
      if (parsed.kind !== 'api_key') return NOT_AN_API_KEY[api];
      const cacheKey = crypto.hash('sha256', credential, 'base64');
      const key = await lookup(cacheKey, credential);
      const now = Date.now();
      if (!key || key.revoked || (key.secretExpireMs !== null && key.secretExpireMs <= now)) return KEY_INVALID[api];
      if (key.keyExpireMs !== null && key.keyExpireMs <= now) return KEY_EXPIRED[api];
      const refused = key.serviceRefusals.get(api);
      if (refused) return refused;
      const project = key.projectId;
      const meta = { service: api, project, consumer: `projects/${project}` };
      const r = key.restrictions;
      if (!r.allowsIp(ctx.ip)) {
        return refusal(
          new AppError(
            'API_KEY_IP_ADDRESS_BLOCKED',
            `The provided API key has an IP address restriction. The originating IP address of the call (${ctx.ip}) violates this restriction.`,
            { metadata: meta },
          ),
        );
      }
      if (!r.allowsReferrer(ctx.referer)) {
        return refusal(
          new AppError(
            'API_KEY_HTTP_REFERRER_BLOCKED',
            `Requests from referer ${ctx.referer ? ctx.referer.slice(0, 200) : '<empty>'} are blocked.`,
            { metadata: meta },
          ),
        );
      }
      if (!r.allowsAndroid(ctx.androidPackage, ctx.androidCert)) {
        return refusal(
          new AppError(
            'API_KEY_ANDROID_APP_BLOCKED',
            `Requests from this Android client application ${ctx.androidPackage?.slice(0, 200) || '<empty>'} are blocked.`,
            {
              metadata: { ...meta, androidPackage: ctx.androidPackage?.slice(0, 200) || '<empty>' },
            },
          ),
        );
      }
      if (!r.allowsIos(ctx.iosBundleId)) {
        return refusal(
          new AppError(
            'API_KEY_IOS_APP_BLOCKED',
            `Requests from this ios client application ${ctx.iosBundleId?.slice(0, 200) || '<empty>'} are blocked.`,
            { metadata: meta },
          ),
        );
      }
      lastUsed.set(key.keyId, new Date(now).toISOString());
      // serviceRefusals let this request through, so the api is ENABLED.
      const requestsPerMinute = key.apis.get(api)!.requestsPerMinute;
      return { ok: true, key: { keyId: key.keyId, projectId: project, accountId: key.accountId, api, requestsPerMinute } };
    },
    invalidateProject: (projectId) => deleteWhere((e) => e.projectId === projectId),
    invalidateKey: (keyId) => deleteWhere((e) => e.keyId === keyId),
    invalidateAll: () => {
      deleteWhere(() => true);
      unknown.clear();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
      cache.clear();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Created in `app.ts` and handed explicitly to the repositories and routes that use it; decorated for tests. */
    keyVerifier: KeyVerifier;
  }
}
