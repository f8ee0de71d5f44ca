import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import { AppError } from '../errors.ts';

/** Seconds a shed client is told to wait (`Retry-After`). */
export const SHED_RETRY_AFTER_SECONDS = 5;

const SAMPLE_INTERVAL_MS = 1000;
/**
 * The event-loop delay is a mean over each sample interval, and start-up (routes registered, the
 * console bundled) can block the loop for over a second on a busy machine: the samples taken until
 * two intervals after the server is ready measure its start, not its load, and shed nothing.
 */
const STARTUP_GRACE_MS = 2 * SAMPLE_INTERVAL_MS;
/** Probes and metrics are never shed: a busy node must not be killed by its liveness probe. */
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Refuses new requests with 503 UNAVAILABLE + `Retry-After` while the event loop is saturated
 * (`@fastify/under-pressure`), instead of letting every request's latency grow without bound.
 * OCR itself is bounded separately: the engine's queue (`OCR_QUEUE_MAX`) answers OVERLOADED, which
 * the Vision routes turn into the same 503. Thresholds are far above normal operation: OCR runs in
 * worker threads, so the main loop stays idle unless something is wrong.
 */
export const loadShedding = fp(
  async (app) => {
    let readyAt = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      readyAt = performance.now();
    });
    await app.register(underPressure, {
      // Mean event-loop delay over the sample interval. Not event-loop *utilization*: it is ~1
      // while the process starts (module compilation), which would shed the first requests.
      maxEventLoopDelay: 1000,
      retryAfter: SHED_RETRY_AFTER_SECONDS,
      sampleInterval: SAMPLE_INTERVAL_MS,
      pressureHandler: async (request, _reply, type) => {
        if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
        if (type === 'eventLoopDelay' && performance.now() - readyAt < STARTUP_GRACE_MS) return;
        throw new AppError('UNAVAILABLE', `The server is overloaded (${type}); retry after ${SHED_RETRY_AFTER_SECONDS} seconds.`, {
          retryAfter: SHED_RETRY_AFTER_SECONDS,
        });
      },
    });
  },
  { name: 'legible-load-shedding' },
);
