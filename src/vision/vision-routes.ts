import type { FastifyPluginAsync } from 'fastify';
import { keyRequestContext, type KeyVerifier } from '../api-keys/key-verifier.ts';
import { errorHandler } from '../http/error-handler.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { UsageRepository } from '../usage/usage-repository.ts';
import type { AnnotateDeps } from './annotate-images.ts';
import { annotateHandler } from './annotate-handler.ts';
import { rateLimitHook, usageHook } from './vision-policy-hooks.ts';
import { BatchAnnotateImagesRequestSchema, SystemParametersSchema } from './vision-request-schema.ts';
import { visionValidatorCompiler } from './vision-validator.ts';
import { visionCors } from './vision-cors.ts';
import { isDocumentedPath, visionMethodPaths } from './vision-paths.ts';
import { checkParent } from './vision-parent.ts';
import { registerUnimplementedMethods } from './unimplemented-methods.ts';
import { registerFileRoutes, type FileRoutesOptions } from './files/file-routes.ts';
import { registerOperationRoutes, type OperationRoutesOptions } from '../operations/operation-routes.ts';

export interface VisionRoutesOptions extends AnnotateDeps, FileRoutesOptions {
  operations: OperationRoutesOptions;
  keyVerifier: KeyVerifier;
  rateLimiter: RateLimiter;
  usage: UsageRepository;
}

/**
 * The seed path (API.md §2) and Google's own, with Google's `projects/{p}` and
 * `projects/{p}/locations/{l}` bindings, so client libraries need only `apiEndpoint`/`port`.
 */
export const VISION_PATHS = visionMethodPaths('images:annotate');

const description =
  "Google Cloud Vision v1 `images:annotate` (BatchAnnotateImages): request and response exactly as Google's, " +
  'proto3 JSON (camelCase or snake_case names, enums by name or number). TEXT_DETECTION and ' +
  'DOCUMENT_TEXT_DETECTION are served; an entry that fails (bad image, unsupported feature) carries its ' +
  'own `error` inside a 200. Limits: 16 images, 10 MB body, 20 MB and 75 megapixels per image.';

/**
 * `POST /api/vision/v1/images:annotate` and `POST /v1/images:annotate`. Hooks, in order:
 * the API key (every restriction is the verifier's) → the project's rate limit → body parsing and
 * proto3 JSON validation → the handler; usage is counted when the answer is decided. Authenticating
 * in `onRequest`, before the body is read, means an anonymous caller cannot make us parse 10 MB,
 * and every later 4xx/5xx is attributable to a project.
 */
export const visionRoutes: FastifyPluginAsync<VisionRoutesOptions> = async (app, opts) => {
  // First: a preflight is answered before any key check (browsers send it without the key).
  app.addHook('onRequest', visionCors);
  app.addHook('onRequest', async (request, reply) => {
    const outcome = await opts.keyVerifier.verify(keyRequestContext(request), 'ocr');
    if (!outcome.ok) {
      // A refused key is answered right here by the app's own error handler (same envelope): Fastify's
      // error path costs more than the whole key check (`npm run bench:load`, part (a)).
      errorHandler(outcome.error, request, reply);
      return reply;
    }
    request.visionCaller = {
      projectId: outcome.key.projectId,
      api: 'ocr',
      requestsPerMinute: outcome.key.requestsPerMinute,
      accountId: outcome.key.accountId,
      keyId: outcome.key.keyId,
    };
  });
  app.addHook('onRequest', rateLimitHook(opts.rateLimiter));
  app.addHook('onSend', usageHook(opts.usage));

  const annotate = annotateHandler({ engine: opts.engine, imageSource: opts.imageSource });
  const handler: typeof annotate = async (request, reply) => {
    checkParent(request, request.visionCaller!.projectId);
    return annotate(request, reply);
  };
  for (const url of VISION_PATHS) {
    app.route({
      method: 'POST',
      url,
      schema: {
        tags: ['vision'],
        summary: 'Detect text in images (Google Cloud Vision compatible)',
        description,
        security: [{ apiKey: [] }],
        body: BatchAnnotateImagesRequestSchema,
        querystring: SystemParametersSchema,
        ...(isDocumentedPath(url) ? {} : { hide: true }),
      },
      validatorCompiler: visionValidatorCompiler,
      handler,
    });
  }
  registerFileRoutes(app, opts);
  registerOperationRoutes(app, opts.operations);
  // Last: every other Vision v1 method answers 501 naming itself.
  registerUnimplementedMethods(app);
};
