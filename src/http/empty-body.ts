import type { preValidationAsyncHookHandler } from 'fastify';

/**
 * `curl -X POST` without `-d` sends no body; for routes whose body fields are all optional that
 * means "all defaults", so an absent body is validated as `{}` (a required field is then reported
 * by name instead of "body must be object").
 */
export const emptyBodyAsObject: preValidationAsyncHookHandler = async (request) => {
  if ((request.body === undefined || request.body === null) && (request.method === 'POST' || request.method === 'PATCH')) {
    request.body = {};
  }
};
