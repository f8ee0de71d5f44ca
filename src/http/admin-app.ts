import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { METRICS_ROUTE_SCHEMA, metricsHandler } from '../metrics/metrics-plugin.ts';

/**
 * The private operations port (`ADMIN_PORT`): `/metrics`, `/docs` and `/openapi.json` of the main
 * app, which then no longer serves them. Keep this port off the load balancer / Service and let
 * only Prometheus and operators reach it (deploy/kubernetes.yaml's NetworkPolicy does).
 * `main` must be ready (its OpenAPI document is complete).
 */
export async function buildAdminApp(main: FastifyInstance): Promise<FastifyInstance> {
  const admin = Fastify({ loggerInstance: main.log.child({ port: 'admin' }) });
  admin.get('/metrics', { schema: { ...METRICS_ROUTE_SCHEMA, hide: true } }, metricsHandler(main.metrics));
  await admin.register(swagger, { mode: 'static', specification: { document: main.swagger() as never } });
  await admin.register(swaggerUi, { routePrefix: '/docs' });
  admin.get('/openapi.json', { schema: { hide: true } }, async () => main.swagger());
  return admin;
}
