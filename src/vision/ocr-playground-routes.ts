import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { accountAuth, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import type { Database } from '../db/tables.ts';
import { findProjectApi } from '../projects/project-apis-repository.ts';
import { ProjectParams } from '../projects/projects-schemas.ts';
import { serviceDisabled } from '../projects/service-disabled.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { UsageRepository } from '../usage/usage-repository.ts';
import type { AnnotateDeps } from './annotate-images.ts';
import { annotateHandler } from './annotate-handler.ts';
import { rateLimitHook, usageHook } from './vision-policy-hooks.ts';
import { BatchAnnotateImagesRequestSchema, SystemParametersSchema } from './vision-request-schema.ts';
import { visionValidatorCompiler } from './vision-validator.ts';

export interface OcrPlaygroundRoutesOptions extends AnnotateDeps {
  db: Kysely<Database>;
  pepper?: string;
  rateLimiter: RateLimiter;
  usage: UsageRepository;
}

/**
 * `POST /api/projects/{project}/ocr:annotate`: the console's playground. It runs OCR on the
 * project's behalf with the account token (no API key is created or needed), with the same request,
 * response, rate limit and usage counting as `images:annotate`. The project must be ACTIVE with the
 * ocr api ENABLED (403 SERVICE_DISABLED otherwise, like a key would get).
 */
export const ocrPlaygroundRoutes: FastifyPluginAsync<OcrPlaygroundRoutesOptions> = async (app, opts) => {
  app.addHook('onRequest', accountAuth({ db: opts.db, pepper: opts.pepper }));
  app.addHook('onRequest', async (request) => {
    const { project: projectId } = request.params as ProjectParams;
    const project = await loadOwnedProject(opts.db, requirePrincipal(request), projectId);
    const api = await findProjectApi(opts.db, project.projectId, 'ocr');
    const disabled = serviceDisabled(project, 'ocr', api?.state, 'account');
    if (disabled) throw disabled;
    // An api without a row is not ENABLED, so serviceDisabled refused it above.
    request.visionCaller = { projectId: project.projectId, api: 'ocr', requestsPerMinute: Number(api!.requests_per_minute) };
  });
  app.addHook('onRequest', rateLimitHook(opts.rateLimiter));
  app.addHook('onSend', usageHook(opts.usage));

  app.route({
    method: 'POST',
    url: '/api/projects/:project/ocr::annotate',
    schema: {
      tags: ['vision'],
      summary: 'Detect text for the console playground (account token)',
      description: 'The same request and response as `POST /api/vision/v1/images:annotate`, authorised by an account token on an owned project.',
      security: ACCOUNT_TOKEN_SECURITY,
      params: ProjectParams,
      body: BatchAnnotateImagesRequestSchema,
      querystring: SystemParametersSchema,
    },
    validatorCompiler: visionValidatorCompiler,
    handler: annotateHandler({ engine: opts.engine, imageSource: opts.imageSource }),
  });
};
