import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { accountAuth, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import type { Database } from '../db/tables.ts';
import type { ProjectApisRepository } from '../projects/project-apis-repository.ts';
import { ProjectParams } from '../projects/projects-schemas.ts';
import { serviceDisabled } from '../projects/service-disabled.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { CONSOLE_KEY, type UsageRepository } from '../usage/usage-repository.ts';
import type { AnnotateDeps } from './annotate-images.ts';
import { annotateHandler, enumEncodingOf, sendVisionJson } from './annotate-handler.ts';
import { annotateFile, type AnnotateFilesDeps } from './files/annotate-files.ts';
import { BatchAnnotateFilesRequestSchema, type BatchAnnotateFilesRequest } from './files/file-request-schema.ts';
import { rateLimitHook, usageHook } from './vision-policy-hooks.ts';
import { BatchAnnotateImagesRequestSchema, SystemParametersSchema, type SystemParameters } from './vision-request-schema.ts';
import { visionValidatorCompiler } from './vision-validator.ts';

export interface OcrPlaygroundRoutesOptions extends AnnotateDeps {
  db: Kysely<Database>;
  pepper?: string;
  projectApis: ProjectApisRepository;
  rateLimiter: RateLimiter;
  usage: UsageRepository;
  /** Absent: no file route (PDF/TIFF/GIF) for the playground. */
  fileDeps?: AnnotateFilesDeps;
}

/**
 * `POST /api/projects/{project}/ocr:annotate`: the console's playground. It runs OCR on the
 * project's behalf with the account token (no API key is created or needed), with the same request,
 * response, rate limit and usage counting as `images:annotate`. The project must be ACTIVE with the
 * ocr api ENABLED (403 SERVICE_DISABLED otherwise, like a key would get).
 * `POST /api/projects/{project}/ocr:annotateFiles` is the same for `files:annotate` (PDF, TIFF, GIF).
 */
export const ocrPlaygroundRoutes: FastifyPluginAsync<OcrPlaygroundRoutesOptions> = async (app, opts) => {
  app.addHook('onRequest', accountAuth({ db: opts.db, pepper: opts.pepper }));
  app.addHook('onRequest', async (request) => {
    const { project: projectId } = request.params as ProjectParams;
    const project = await loadOwnedProject(opts.db, requirePrincipal(request), projectId);
    const api = await opts.projectApis.find(project.projectId, 'ocr');
    const disabled = serviceDisabled(project, 'ocr', api?.state, 'account');
    if (disabled) throw disabled;
    // An api without a row is not ENABLED, so serviceDisabled refused it above.
    request.visionCaller = { projectId: project.projectId, api: 'ocr', requestsPerMinute: Number(api!.requests_per_minute) };
  });
  app.addHook('onRequest', rateLimitHook(opts.rateLimiter));
  app.addHook('onSend', usageHook(opts.usage, CONSOLE_KEY));

  app.route({
    method: 'POST',
    url: '/api/projects/:project/ocr::annotate',
    schema: {
      tags: ['vision'],
      summary: 'Detect text for the console playground (account token)',
      description:
        'The same request and response as `POST /api/vision/v1/images:annotate`, authorised by an account token on an owned project.',
      security: ACCOUNT_TOKEN_SECURITY,
      params: ProjectParams,
      body: BatchAnnotateImagesRequestSchema,
      querystring: SystemParametersSchema,
    },
    validatorCompiler: visionValidatorCompiler,
    handler: annotateHandler({ engine: opts.engine, imageSource: opts.imageSource }),
  });

  if (opts.fileDeps) {
    const fileDeps = opts.fileDeps;
    app.route({
      method: 'POST',
      url: '/api/projects/:project/ocr::annotateFiles',
      schema: {
        tags: ['vision'],
        summary: 'Detect text in PDF, TIFF and GIF pages for the console playground (account token)',
        description:
          'The same request and response as `POST /api/vision/v1/files:annotate`, authorised by an account token on an owned project.',
        security: ACCOUNT_TOKEN_SECURITY,
        params: ProjectParams,
        body: BatchAnnotateFilesRequestSchema,
        querystring: SystemParametersSchema,
      },
      validatorCompiler: visionValidatorCompiler,
      handler: async (request: FastifyRequest<{ Body: BatchAnnotateFilesRequest; Querystring: SystemParameters }>, reply) => {
        const { response, pages } = await annotateFile(request.body.requests[0], request.visionCaller!.projectId, fileDeps, {
          enumEncoding: enumEncodingOf(request.query),
        });
        request.visionImages = pages;
        return sendVisionJson(request, reply, { responses: [response] });
      },
    });
  }
};
