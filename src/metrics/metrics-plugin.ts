import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
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
export const metricsPlugin = fp<{ metrics: Metrics }>(
  async (app, { metrics }) => {
    app.decorate('metrics', metrics);

    // Callback style: no promise per request on the hot path.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) metrics.rateLimitRefusals.inc({ route });
      done();
    });

    app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics', produces: ['text/plain'] } }, async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    });
  },
  { name: 'legible-metrics' },
);
