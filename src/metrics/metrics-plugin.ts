import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus series; see `src/metrics/metrics.ts`. */
    metrics: Metrics;
  }
}

/**
 * Times every request by its route *pattern* (never the raw URL: ids would explode the label
 * cardinality), counts 429 refusals, and serves `GET /metrics` in Prometheus' text format.
 * Registered with fastify-plugin so its hooks see every route of the app.
 */
/** A route pattern as a label: Fastify's `::` escape and inline regexes removed (`/v1/images:annotate`). */
export function routeLabel(url: string | undefined): string {
  return url === undefined ? 'unmatched' : url.replace(/\([^)]*\)/g, '').replace(/::/g, ':');
}

/** `GET /metrics` in Prometheus' text format; the same handler on the API port or the admin port. */
export function metricsHandler(metrics: Metrics) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  };
}

export const METRICS_ROUTE_SCHEMA = { tags: ['operations'], summary: 'Prometheus metrics', produces: ['text/plain'] };

export const metricsPlugin = fp<{ metrics: Metrics; serveRoute?: boolean }>(
  async (app, { metrics, serveRoute = true }) => {
    app.decorate('metrics', metrics);

    // Callback style: no promise per request on the hot path.
    app.addHook('onResponse', (request, reply, done) => {
      const route = routeLabel(request.routeOptions.url);
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) metrics.rateLimitRefusals.inc({ route });
      done();
    });

    // With ADMIN_PORT, /metrics is served on the admin port only (src/http/admin-app.ts).
    if (serveRoute) app.get('/metrics', { schema: METRICS_ROUTE_SCHEMA }, metricsHandler(metrics));
  },
  { name: 'legible-metrics' },
);
