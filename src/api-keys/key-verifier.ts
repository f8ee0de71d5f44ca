import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../errors.ts';
import { digestsEqual, hashSecret, parseSecret } from '../credentials/secret-format.ts';
import { apiTitle } from '../projects/api-catalog.ts';
import { compileRestrictions, type CompiledRestrictions, type KeyRestrictions } from './key-restrictions.ts';

/**
 * API-key verification for the public APIs (OCR, navigation): one call per request.
 *
 *   const verified = await app.keyVerifier.verify(keyRequestContext(request), 'ocr'); // throws AppError
 *   // → { keyId, projectId, accountId, api, requestsPerMinute }
 *
 * Order (each a Google-style error): no credential → 401 CREDENTIALS_MISSING; malformed or bad
 * checksum → 401 API_KEY_INVALID without any store read; an account token → 401
 * ACCESS_TOKEN_TYPE_UNSUPPORTED; unknown / revoked / expired / rotated-out → 401 API_KEY_INVALID;
 * project not ACTIVE or api not ENABLED → 403 SERVICE_DISABLED; api not in the key's services →
 * 403 API_KEY_SERVICE_BLOCKED; then IP, referrer, Android and iOS restrictions → 403 API_KEY_*_BLOCKED.
 *
 * Cache: entries by secret hash, bounded (`maxEntries`), each trusted for `cacheTtlMs` (default 5 s,
 * 0 disables). Every mutation route on this node calls `invalidateKey`/`invalidateProject`, so a
 * revocation is never served from this node's cache; other nodes see it within `cacheTtlMs`.
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

export interface KeyVerifier {
  /** Resolves the request's key for `api`, or throws an AppError (see the order above). */
  verify(ctx: KeyRequestContext, api: 'ocr' | 'navigation'): Promise<VerifiedKey>;
  invalidateProject(projectId: string): void;
  invalidateKey(keyId: string): void;
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
  secretHash: string;
  keyExpireMs: number | null;
  secretExpireMs: number | null;
  revoked: boolean;
  projectState: string;
  apis: ReadonlyMap<string, { state: string; requestsPerMinute: number }>;
  restrictions: CompiledRestrictions;
  loadedAt: number;
}

const INVALID_MESSAGE = 'API key not valid. Please pass a valid API key.';

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
    referer: firstString(h.referer),
    androidPackage: firstString(h['x-android-package']),
    androidCert: firstString(h['x-android-cert']),
    iosBundleId: firstString(h['x-ios-bundle-identifier']),
  };
}

function credentialOf(ctx: KeyRequestContext): string | undefined {
  if (ctx.authorization) {
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(ctx.authorization);
    return m ? m[1] : ctx.authorization;
  }
  return ctx.apiKeyHeader || ctx.queryKey || undefined;
}

const timeMs = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

export function createKeyVerifier(deps: KeyVerifierDeps): KeyVerifier {
  const { db, pepper } = deps;
  const ttlMs = deps.cacheTtlMs ?? 5000;
  const maxEntries = deps.maxEntries ?? 10_000;
  const cache = new Map<string, CachedKey>();
  const lastUsed = new Map<string, string>();
  // Bumped by every invalidation: a load that started before one is not cached.
  let generation = 0;

  async function load(hash: string): Promise<CachedKey | undefined> {
    const row = await db
      .selectFrom('api_key_secrets as s')
      .innerJoin('api_keys as k', 'k.key_id', 's.key_id')
      .innerJoin('projects as p', 'p.project_id', 'k.project_id')
      .select([
        's.secret_hash', 's.expire_time as secret_expire_time', 'k.key_id', 'k.project_id', 'k.restrictions',
        'k.expire_time', 'k.delete_time', 'p.account_id', 'p.state as project_state',
      ])
      .where('s.secret_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return undefined;
    const apis = await db
      .selectFrom('project_apis')
      .select(['api', 'state', 'requests_per_minute'])
      .where('project_id', '=', row.project_id)
      .execute();
    return {
      keyId: row.key_id,
      projectId: row.project_id,
      accountId: row.account_id,
      secretHash: row.secret_hash,
      keyExpireMs: timeMs(row.expire_time),
      secretExpireMs: timeMs(row.secret_expire_time),
      revoked: row.delete_time !== null,
      projectState: row.project_state,
      apis: new Map(apis.map((a) => [a.api, { state: a.state, requestsPerMinute: Number(a.requests_per_minute) }])),
      restrictions: compileRestrictions(JSON.parse(row.restrictions) as KeyRestrictions),
      loadedAt: Date.now(),
    };
  }

  async function lookup(hash: string): Promise<CachedKey | undefined> {
    const hit = cache.get(hash);
    if (hit && Date.now() - hit.loadedAt < ttlMs) {
      deps.onCacheLookup?.('hit');
      return hit;
    }
    deps.onCacheLookup?.('miss');
    if (hit) cache.delete(hash);
    const startGeneration = generation;
    const entry = await load(hash);
    if (entry && ttlMs > 0 && generation === startGeneration) {
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(hash, entry);
    }
    return entry;
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
      if (!credential) {
        throw new AppError('CREDENTIALS_MISSING', 'The request is missing a valid API key. Send it as `Authorization: Bearer <key>`, `X-Goog-Api-Key: <key>` or `?key=<key>`.');
      }
      const parsed = parseSecret(credential);
      if (!parsed) throw new AppError('API_KEY_INVALID', INVALID_MESSAGE, { metadata: { service: api } });
      if (parsed.kind !== 'api_key') {
        throw new AppError('ACCESS_TOKEN_TYPE_UNSUPPORTED', `Account tokens and client secrets cannot call the ${api} API; use an API key of the project.`, { metadata: { service: api } });
      }
      const hash = hashSecret(credential, pepper);
      const key = await lookup(hash);
      const now = Date.now();
      if (!key || !digestsEqual(key.secretHash, hash) || key.revoked || (key.secretExpireMs !== null && key.secretExpireMs <= now)) {
        throw new AppError('API_KEY_INVALID', INVALID_MESSAGE, { metadata: { service: api } });
      }
      if (key.keyExpireMs !== null && key.keyExpireMs <= now) {
        throw new AppError('API_KEY_INVALID', 'API key expired. Please renew the API key.', { metadata: { service: api } });
      }
      const project = key.projectId;
      const meta = { service: api, project, consumer: `projects/${project}` };
      if (key.projectState !== 'ACTIVE') {
        throw new AppError('SERVICE_DISABLED', `Project ${project} has been deleted (${key.projectState}); its keys no longer work.`, { metadata: meta });
      }
      const enabled = key.apis.get(api);
      if (!enabled || enabled.state !== 'ENABLED') {
        throw new AppError(
          'SERVICE_DISABLED',
          `${apiTitle(api)} has not been used in project ${project} before or it is disabled. Enable it with ` +
            `POST /api/projects/${project}/apis {"api":"${api}"} (account token required), then retry.`,
          { metadata: { ...meta, serviceTitle: apiTitle(api) } },
        );
      }
      const r = key.restrictions;
      if (!r.services.has(api)) {
        throw new AppError('API_KEY_SERVICE_BLOCKED', `Requests to this API ${api} are blocked by the key's service restrictions.`, { metadata: { ...meta, apiName: api } });
      }
      if (!r.allowsIp(ctx.ip)) {
        throw new AppError('API_KEY_IP_ADDRESS_BLOCKED', `The provided API key has an IP address restriction. The originating IP address of the call (${ctx.ip}) violates this restriction.`, { metadata: meta });
      }
      if (!r.allowsReferrer(ctx.referer)) {
        throw new AppError('API_KEY_HTTP_REFERRER_BLOCKED', `Requests from referer ${ctx.referer ? ctx.referer.slice(0, 200) : '<empty>'} are blocked.`, { metadata: meta });
      }
      if (!r.allowsAndroid(ctx.androidPackage, ctx.androidCert)) {
        throw new AppError('API_KEY_ANDROID_APP_BLOCKED', `Requests from this Android client application ${ctx.androidPackage?.slice(0, 200) || '<empty>'} are blocked.`, {
          metadata: { ...meta, androidPackage: ctx.androidPackage?.slice(0, 200) || '<empty>' },
        });
      }
      if (!r.allowsIos(ctx.iosBundleId)) {
        throw new AppError('API_KEY_IOS_APP_BLOCKED', `Requests from this ios client application ${ctx.iosBundleId?.slice(0, 200) || '<empty>'} are blocked.`, { metadata: meta });
      }
      lastUsed.set(key.keyId, new Date(now).toISOString());
      return { keyId: key.keyId, projectId: project, accountId: key.accountId, api, requestsPerMinute: enabled.requestsPerMinute };
    },
    invalidateProject: (projectId) => deleteWhere((e) => e.projectId === projectId),
    invalidateKey: (keyId) => deleteWhere((e) => e.keyId === keyId),
    invalidateAll: () => deleteWhere(() => true),
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
    /** Created in `app.ts`; mutation routes call its `invalidate*` after committing. */
    keyVerifier: KeyVerifier;
  }
}
