import fp from 'fastify-plugin';
import type { DrainState } from './drain-state.ts';

/**
 * Decorates `app.drainState` and, once draining, answers every request with `Connection: close`:
 * a keep-alive connection whose request was in flight at SIGTERM would otherwise stay open after
 * its response (until `keepAliveTimeout`) and hold `app.close()` — and the exit — hostage. Clients
 * reconnect, and their new connections reach nodes that are still ready.
 */
export const drainingPlugin = fp<{ drainState: DrainState }>(
  async (app, { drainState }) => {
    app.decorate('drainState', drainState);
    // Callback style: no promise per request on the hot path.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (drainState.draining) void reply.header('connection', 'close');
      done(null, payload);
    });
  },
  { name: 'legible-draining' },
);
