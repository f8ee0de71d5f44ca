import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enumEncodingOf, sendVisionJson } from '../annotate-handler.ts';
import { SystemParametersSchema, type SystemParameters } from '../vision-request-schema.ts';
import { visionValidatorCompiler } from '../vision-validator.ts';
import { isDocumentedPath, visionMethodPaths } from '../vision-paths.ts';
import { checkParent } from '../vision-parent.ts';
import { annotateFile, type AnnotateFilesDeps } from './annotate-files.ts';
import { BatchAnnotateFilesRequestSchema, type BatchAnnotateFilesRequest } from './file-request-schema.ts';

export interface FileRoutesOptions {
  fileDeps: AnnotateFilesDeps;
}

const description =
  'Google Cloud Vision v1 `files:annotate` (BatchAnnotateFiles): one PDF, TIFF or GIF sent inline ' +
  '(`inputConfig.content`) or by `gcsSource.uri` (Legible storage); at most 5 `pages` (1-based, -1 = last; ' +
  'empty = the first 5). One AnnotateImageResponse per page with `context.pageNumber`, `totalPages`, and a ' +
  'per-file `error` inside a 200 for a file that cannot be read. PDF pages report `width`/`height` in points ' +
  'and boxes as `normalizedVertices`.';

type FilesRequest = FastifyRequest<{ Body: BatchAnnotateFilesRequest; Querystring: SystemParameters }>;

/** `files:annotate` at every Vision prefix and binding; registered inside the key-authenticated Vision plugin. */
export function registerFileRoutes(app: FastifyInstance, opts: FileRoutesOptions): void {
  for (const url of visionMethodPaths('files:annotate')) {
    app.route({
      method: 'POST',
      url,
      schema: {
        tags: ['vision'],
        summary: 'Detect text in PDF, TIFF and GIF pages (Google Cloud Vision compatible)',
        description,
        security: [{ apiKey: [] }],
        body: BatchAnnotateFilesRequestSchema,
        querystring: SystemParametersSchema,
        ...(isDocumentedPath(url) ? {} : { hide: true }),
      },
      validatorCompiler: visionValidatorCompiler,
      handler: async (request: FilesRequest, reply) => {
        const projectId = request.visionCaller!.projectId;
        checkParent(request, projectId);
        const { response, pages } = await annotateFile(request.body.requests[0], projectId, opts.fileDeps, {
          enumEncoding: enumEncodingOf(request.query),
        });
        request.visionImages = pages;
        return sendVisionJson(request, reply, { responses: [response] });
      },
    });
  }
}
