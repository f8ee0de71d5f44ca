import path from 'node:path';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { loggerOptions } from './http/logger-options.ts';
import { createRequestIdGenerator } from './http/request-id.ts';
import { healthRoutes } from './http/health-routes.ts';
import { refuseUnstorableInput } from './http/storable-input.ts';
import { swaggerOptions } from './http/openapi.ts';
import { createKeyVerifier } from './api-keys/key-verifier.ts';
import { KEY_RESTRICTION_FORMATS, keyRestrictionFormats } from './api-keys/key-restriction-formats.ts';
import { auditRoutes } from './audit/audit-routes.ts';
import { accountTokensRoutes } from './accounts/account-tokens-routes.ts';
import { createProjectsRepository } from './projects/projects-repository.ts';
import { projectsRoutes } from './projects/projects-routes.ts';
import { createProjectApisRepository } from './projects/project-apis-repository.ts';
import { projectApisRoutes } from './projects/project-apis-routes.ts';
import { createApiKeysRepository } from './api-keys/api-keys-repository.ts';
import { apiKeysRoutes } from './api-keys/api-keys-routes.ts';
import { oauthClientsRoutes } from './oauth-clients/oauth-clients-routes.ts';
import { rateLimiterFor } from './rate-limit/rate-limiter-for-config.ts';
import { createMetrics } from './metrics/metrics.ts';
import { metricsPlugin } from './metrics/metrics-plugin.ts';
import { instrumentOcrEngine } from './metrics/instrument-ocr-engine.ts';
import { loadShedding } from './lifecycle/load-shedding.ts';
import { createDrainState } from './lifecycle/drain-state.ts';
import { drainingPlugin } from './lifecycle/draining-plugin.ts';
import { idempotencyPlugin } from './idempotency/idempotency-plugin.ts';
import { createClusterInvalidation } from './cluster/cluster-invalidation.ts';
import { createUsageRepository } from './usage/usage-repository.ts';
import { usageRoutes } from './usage/usage-routes.ts';
import { ocrPlugin } from './ocr/engine/ocr-plugin.ts';
import { MAX_IMAGE_BYTES } from './ocr/decode/decode-image.ts';
import { BODY_LIMIT_BYTES } from './http/body-limit.ts';
import { visionRoutes } from './vision/vision-routes.ts';
import { createDocumentRenderer } from './vision/files/document-renderer.ts';
import { PDF_MAX_PAGE_SIDE_POINTS } from './vision/files/file-pages.ts';
import { objectStoreFor } from './storage/object-store-for-config.ts';
import { storageFileSource } from './storage/storage-file-source.ts';
import { gcsJsonRoutes } from './storage/gcs-json-routes.ts';
import { createOperationsRepository } from './operations/operations-repository.ts';
import { createOperationRunner } from './operations/operation-runner.ts';
import { operationsConsoleRoutes } from './operations/operations-console-routes.ts';
import { ocrPlaygroundRoutes } from './vision/ocr-playground-routes.ts';
import { consoleRoutes } from './console/console-routes.ts';
import { whoamiRoutes } from './console/whoami-routes.ts';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** Where logs go instead of stdout (tests capture them to check that no secret is logged). */
  logStream?: { write(line: string): void };
  /** Sees every route as it is registered (tests build the auth matrix from the routes that exist). */
  onRoute?: (route: RouteOptions) => void;
}

/** Time to receive a whole request (headers and body) before the socket is dropped (slow-loris guard). */
export const REQUEST_TIMEOUT_MS = 60_000;

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * Builds the whole service: every plugin and route module is listed here, explicitly, in order.
 * Only `main.ts` listens; tests call `buildApp` and `inject`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logStream ? { ...(loggerOptions(config.logLevel) as object), stream: deps.logStream } : loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // A hop count as the function Fastify would build from it (its types take no number).
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy === false ? false : [...config.trustProxy],
    requestIdHeader: 'x-request-id',
    genReqId: createRequestIdGenerator(),
    // Router-level failures (a path param over maxParamLength, a malformed URL) get the envelope too.
    frameworkErrors: errorHandler,
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false, strictNumbers: true },
      plugins: [keyRestrictionFormats],
    },
    // The serializer compiles a response schema with an `anyOf` (a key's `state`) through its own Ajv,
    // which must know the restriction formats the answer's schema shares with the request's.
    serializerOpts: { ajv: { formats: KEY_RESTRICTION_FORMATS } },
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // `curl -X DELETE -H 'Content-Type: application/json'` sends no body: treat it as absent instead
  // of Fastify's "empty JSON body" 400. Non-empty bodies go through Fastify's own (prototype-poisoning-safe) parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Only JSON: Fastify's default text/plain parser would hand the body to the schema as a string (400); 415 as docs/errors.md says.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });

  // Finite numbers and no NUL in strings on every route (after validation coerced them, before any route preHandler).
  app.addHook('preHandler', refuseUnstorableInput);

  // Operations: metrics, load shedding and draining see every route; idempotency attaches to the
  // setup POST routes as they are declared, so it comes before them.
  const metrics = createMetrics();
  // With ADMIN_PORT, /metrics, /docs and /openapi.json move to the admin app (src/http/admin-app.ts).
  const servesOperations = config.admin === undefined;
  await app.register(metricsPlugin, { metrics, serveRoute: servesOperations });
  await app.register(loadShedding);
  const drainState = createDrainState();
  await app.register(drainingPlugin, { drainState });
  await app.register(idempotencyPlugin, { db: database.db, lockTtlMs: config.idempotencyLockTtlMs });
  await app.register(ocrPlugin, {
    ocr: config.ocr,
    modelCacheDir: path.join(config.dataDir, 'models'),
    onStageTimings: (timings) => metrics.observeOcrStages(timings),
  });
  metrics.observeOcrQueue(() => app.ocr.queueSize);
  const engine = instrumentOcrEngine(app.ocr, metrics, config.ocr.workers);

  await app.register(swagger, swaggerOptions());
  if (servesOperations) {
    await app.register(swaggerUi, { routePrefix: '/docs' });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }

  await app.register(healthRoutes, { database, isDraining: () => drainState.draining });

  const keyVerifier = createKeyVerifier({
    db: database.db,
    pepper: config.secretPepper,
    cacheTtlMs: config.keyCacheTtlMs,
    onFlushError: (err) => app.log.warn({ err }, 'could not record API key lastUsedTime; will retry'),
    onCacheLookup: (result) => metrics.keyCacheLookups.inc({ result }),
  });
  // On PostgreSQL every node's cache hears every node's invalidations (LISTEN/NOTIFY); no-op on SQLite.
  const cluster = createClusterInvalidation({
    verifier: keyVerifier,
    db: database.db,
    databaseUrl: config.databaseUrl,
    log: app.log,
    onReceived: (message) => metrics.invalidationsReceived.inc({ kind: message.kind }),
  });
  // Handed explicitly to whatever verifies or invalidates; the decorator is for tests (flush, verify).
  app.decorate('keyVerifier', cluster.verifier);
  app.addHook('onReady', () => cluster.start());
  app.addHook('onClose', () => cluster.close());
  app.addHook('onClose', async () => keyVerifier.close());
  // Per-project request rates: in-memory on one node; with REDIS_URL shared by every node, failing
  // open to this node's in-memory limiter while Redis is unreachable (docs/decisions.md "Scale-out").
  const rateLimits = rateLimiterFor(config, { log: app.log, onFailOpen: () => metrics.rateLimitFailOpen.inc() });
  app.decorate('rateLimiter', rateLimits.limiter);
  app.addHook('onReady', () => rateLimits.ready());
  app.addHook('onClose', () => rateLimits.close());

  // Repositories whose changes the key verifier caches: each empties it (this node at once, the others
  // by NOTIFY) after its transaction commits. Every mutation writes its audit row in that transaction.
  const keyCache = cluster.verifier;
  const projects = createProjectsRepository(database.db, { keyCache });
  const projectApis = createProjectApisRepository(database.db, { defaultRequestsPerMinute: config.defaultRequestsPerMinute, keyCache });
  const apiKeys = createApiKeysRepository(database.db, { pepper: config.secretPepper, projectApis, keyCache });

  // Feature routes, in the order a user meets them.
  const platform = { db: database.db, pepper: config.secretPepper };
  await app.register(projectsRoutes, { ...platform, projects });
  await app.register(projectApisRoutes, { ...platform, projectApis });
  await app.register(apiKeysRoutes, { ...platform, apiKeys });
  await app.register(auditRoutes, platform);
  await app.register(accountTokensRoutes, platform);
  await app.register(oauthClientsRoutes, { db: database.db, pepper: config.secretPepper });
  const vision = {
    engine,
    rateLimiter: app.rateLimiter,
    usage: createUsageRepository(database.db),
    // imageUri policy (docs/decisions.md "Vision endpoint"): off unless IMAGE_URI_FETCH.
    imageSource: {
      fetchEnabled: config.ocr.imageUriFetch,
      allowedAddresses: config.ocr.imageUriAllowedAddresses,
      timeoutMs: config.ocr.imageUriFetchTimeoutMs,
      maxBytes: MAX_IMAGE_BYTES,
      maxRedirects: config.ocr.imageUriFetchMaxRedirects,
      // One counter for every route that fetches: downloads together stay under the bound.
      bytesInFlight: { max: config.ocr.imageUriFetchMaxBytesInFlight, used: 0 },
    },
  };
  // PDF/TIFF/GIF pages for files:annotate, rendered in a worker pool of their own (bounded heap and time).
  const documents = createDocumentRenderer({
    limits: { ...config.files, maxPageSidePoints: PDF_MAX_PAGE_SIDE_POINTS },
    workers: config.files.workers,
    timeoutMs: config.files.renderTimeoutMs,
    maxHeapMb: config.files.workerHeapMb,
  });
  // Storage for gs:// URIs (local directory or S3) and long-running operations over it.
  const store = objectStoreFor(config.storage);
  const fileDeps = { engine, documents, maxFileBytes: config.files.maxBytes, files: storageFileSource(store) };
  const operationsRepo = createOperationsRepository(database.db);
  const runner = createOperationRunner({
    repo: operationsRepo,
    store,
    files: fileDeps,
    imageSource: vision.imageSource,
    usage: vision.usage,
    log: app.log,
    leaseMs: config.operations.leaseMs,
    pollMs: config.operations.pollMs,
    retentionMs: config.operations.retentionMs,
  });
  if (config.operations.runner) app.addHook('onReady', async () => runner.start());
  // Jobs stop before anything closes (preClose: the OCR engine closes in onClose); an interrupted job's
  // lease is released for the next node.
  app.addHook('preClose', async () => runner.stop());
  app.addHook('onClose', async () => documents.close());
  const operations = { repo: operationsRepo, store, runner, allowCancel: config.operations.allowCancel };
  await app.register(visionRoutes, { ...vision, keyVerifier: cluster.verifier, fileDeps, operations });
  await app.register(gcsJsonRoutes, { store, keyVerifier: cluster.verifier, maxObjectBytes: config.files.maxBytes });
  await app.register(ocrPlaygroundRoutes, { ...vision, ...platform, projectApis, fileDeps });
  await app.register(usageRoutes, platform);
  await app.register(operationsConsoleRoutes, { ...platform, repo: operationsRepo });
  // The web console (static single-page app at /console) and the token introspection it signs in with.
  await app.register(whoamiRoutes, platform);
  await app.register(consoleRoutes);

  return app;
}
