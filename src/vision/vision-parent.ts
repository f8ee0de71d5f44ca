import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * A Vision call names its project in the path (`/v1/projects/{p}/…`) or in the body's `parent`
 * (`projects/{p}/locations/{l}`): either must be the API key's own project. Another project is
 * answered 404, as for any resource of another tenant (existence does not leak).
 */
export function checkParent(request: FastifyRequest, projectId: string): void {
  const fromPath = (request.params as { project?: string } | undefined)?.project;
  const parent = (request.body as { parent?: unknown } | undefined)?.parent;
  const fromBody = typeof parent === 'string' ? /^projects\/([^/]+)(?:\/locations\/[^/]+)?$/.exec(parent) : undefined;
  if (typeof parent === 'string' && parent !== '' && !fromBody) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `Invalid parent ${JSON.stringify(parent)}: expected projects/{project} or projects/{project}/locations/{location}.`,
      {
        fieldViolations: [{ field: 'parent', description: 'expected projects/{project} or projects/{project}/locations/{location}' }],
      },
    );
  }
  for (const named of [fromPath, fromBody?.[1]]) {
    if (named !== undefined && named !== projectId) {
      throw new AppError('NOT_FOUND', `Project ${named} not found (an API key acts on its own project only).`);
    }
  }
}
