import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/tables.ts';
import type { KeyVerifier } from '../api-keys/key-verifier.ts';
import { InvalidationListener } from './invalidation-listener.ts';
import { INVALIDATION_CHANNEL, formatInvalidation, type InvalidationMessage } from './invalidation-message.ts';

export interface ClusterInvalidationDeps {
  /** This node's verifier: the one whose cache is emptied by messages from any node. */
  verifier: KeyVerifier;
  db: Kysely<Database>;
  /** `postgres://…`: enables the cluster. Anything else (SQLite) runs a single node: no-op. */
  databaseUrl: string;
  log: FastifyBaseLogger;
  onReceived?: (message: InvalidationMessage) => void;
  /** While the LISTEN connection is down the cache is emptied this often (the degraded bound). */
  degradedClearMs?: number;
}

export interface ClusterInvalidation {
  /**
   * The verifier `app.ts` hands to the repositories and key-authenticated routes: its `invalidateKey`/`invalidateProject`
   * empty this node's cache at once and `NOTIFY` every other node.
   */
  readonly verifier: KeyVerifier;
  readonly connected: boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}

const PUBLISH_ATTEMPTS = 3;

/**
 * Cross-node cache invalidation on PostgreSQL LISTEN/NOTIFY (the invalidation broadcast Unkey
 * uses, on the database every node already shares). Repositories call `invalidate*` after their
 * transaction committed (`app.ts` hands them this verifier), so the NOTIFY is sent after the commit. Bound: typically milliseconds;
 * while the LISTEN connection is down the cache is emptied every `degradedClearMs` (500 ms) and
 * once more on reconnect (missed messages), so a revocation is never served longer than ~1 s.
 *
 * @example
 *   const cluster = createClusterInvalidation({ verifier, db, databaseUrl, log: app.log });
 *   app.decorate('keyVerifier', cluster.verifier);
 *   await cluster.start();  app.addHook('onClose', () => cluster.close());
 */
export function createClusterInvalidation(deps: ClusterInvalidationDeps): ClusterInvalidation {
  const local = deps.verifier;
  if (!/^postgres(ql)?:\/\//.test(deps.databaseUrl)) {
    return { verifier: local, connected: true, start: async () => {}, close: async () => {} };
  }
  const log = deps.log.child({ component: 'cluster-invalidation' });
  let degradedTimer: NodeJS.Timeout | undefined;

  function apply(message: InvalidationMessage): void {
    if (message.kind === 'key') local.invalidateKey(message.id);
    else local.invalidateProject(message.id);
    deps.onReceived?.(message);
  }

  const listener = new InvalidationListener({
    databaseUrl: deps.databaseUrl,
    onMessage: apply,
    onConnectedChange(connected) {
      local.invalidateAll();
      clearInterval(degradedTimer);
      if (connected) {
        log.info('listening for cache invalidations');
        return;
      }
      log.warn('lost the invalidation connection; key cache kept for at most %d ms until it is back', deps.degradedClearMs ?? 500);
      degradedTimer = setInterval(() => local.invalidateAll(), deps.degradedClearMs ?? 500);
      degradedTimer.unref();
    },
    onError(err) {
      log.debug({ err }, 'invalidation connection error');
    },
  });

  async function publish(message: InvalidationMessage): Promise<void> {
    const payload = formatInvalidation(message);
    for (let attempt = 1; attempt <= PUBLISH_ATTEMPTS; attempt += 1) {
      try {
        await sql`select pg_notify(${INVALIDATION_CHANNEL}, ${payload})`.execute(deps.db);
        return;
      } catch (err) {
        if (attempt === PUBLISH_ATTEMPTS) {
          log.error({ err, message }, 'could not broadcast a cache invalidation; other nodes rely on their cache TTL');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  const pending = new Set<Promise<void>>();
  function broadcast(message: InvalidationMessage): void {
    const p = publish(message).finally(() => pending.delete(p));
    pending.add(p);
  }

  const verifier: KeyVerifier = {
    verify: (ctx, api) => local.verify(ctx, api),
    invalidateKey(keyId) {
      local.invalidateKey(keyId);
      broadcast({ kind: 'key', id: keyId });
    },
    invalidateProject(projectId) {
      local.invalidateProject(projectId);
      broadcast({ kind: 'project', id: projectId });
    },
    invalidateAll: () => local.invalidateAll(),
    flush: () => local.flush(),
    close: () => local.close(),
  };

  return {
    verifier,
    get connected() {
      return listener.connected;
    },
    start: () => listener.start(),
    async close() {
      clearInterval(degradedTimer);
      await Promise.all(pending);
      await listener.close();
    },
  };
}
