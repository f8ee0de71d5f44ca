import type { FastifyReply, FastifyRequest } from 'fastify';
import { annotateImages, type AnnotateDeps } from './annotate-images.ts';
import type { BatchAnnotateImagesRequest, SystemParameters } from './vision-request-schema.ts';

export type AnnotateRequest = FastifyRequest<{ Body: BatchAnnotateImagesRequest; Querystring: SystemParameters }>;

/**
 * The `images:annotate` handler, shared by the key-authenticated routes and the console
 * playground. `$alt=json;enum-encoding=int` (sent by Google's client libraries) answers enums as
 * numbers; `prettyPrint=true` indents the JSON.
 */
export function annotateHandler(deps: AnnotateDeps) {
  return async function annotate(request: AnnotateRequest, reply: FastifyReply): Promise<unknown> {
    const enumEncoding = request.query.$alt?.includes('enum-encoding=int') ? 'int' : 'name';
    const result = await annotateImages(request.body, deps, { enumEncoding });
    void reply.type('application/json; charset=utf-8');
    return request.query.prettyPrint === true ? JSON.stringify(result, null, 2) : result;
  };
}
