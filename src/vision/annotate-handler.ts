import type { FastifyReply, FastifyRequest } from 'fastify';
import { annotateImages, type AnnotateDeps } from './annotate-images.ts';
import type { BatchAnnotateImagesRequest, SystemParameters } from './vision-request-schema.ts';

export type AnnotateRequest = FastifyRequest<{ Body: BatchAnnotateImagesRequest; Querystring: SystemParameters }>;

/** `$alt=json;enum-encoding=int` (sent by Google's client libraries) answers enums as numbers. */
export function enumEncodingOf(query: SystemParameters): 'int' | 'name' {
  return query.$alt?.includes('enum-encoding=int') ? 'int' : 'name';
}

/** A Vision JSON answer, indented when the client asked with `prettyPrint=true`. */
export function sendVisionJson(request: FastifyRequest<{ Querystring: SystemParameters }>, reply: FastifyReply, body: unknown): unknown {
  void reply.type('application/json; charset=utf-8');
  return request.query.prettyPrint === true ? JSON.stringify(body, null, 2) : body;
}

/** The `images:annotate` handler, shared by the key-authenticated routes and the console playground. */
export function annotateHandler(deps: AnnotateDeps) {
  return async function annotate(request: AnnotateRequest, reply: FastifyReply): Promise<unknown> {
    const result = await annotateImages(request.body, deps, { enumEncoding: enumEncodingOf(request.query) });
    return sendVisionJson(request, reply, result);
  };
}
