/**
 * Whether this node is shutting down. After SIGTERM `main.ts` starts draining: `/readyz` answers
 * 503 so load balancers stop sending new requests, while in-flight and late requests are still
 * served; only then does the server stop accepting (KEYS-SECURITY.md §6.3).
 */
export interface DrainState {
  readonly draining: boolean;
  start(): void;
}

export function createDrainState(): DrainState {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    start() {
      draining = true;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by `buildApp`; `main.ts` starts it on SIGTERM, `/readyz` reads it. */
    drainState: DrainState;
  }
}
