import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldViolation } from '../errors.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { redactUrl } from './logger-options.ts';
import { BODY_LIMIT_BYTES } from './body-limit.ts';

/** `/body/requests/0/image` → `requests[0].image` (Google's field path style). */
export function toFieldPath(instancePath: string, missingProperty?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (missingProperty) parts.push(missingProperty);
  return parts
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

function fromValidation(err: FastifyError): AppError {
  const violations: FieldViolation[] = (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    const extra =
      typeof params.missingProperty === 'string'
        ? params.missingProperty
        : typeof params.additionalProperty === 'string'
          ? params.additionalProperty
          : undefined;
    const field = toFieldPath(v.instancePath, extra);
    const description =
      typeof params.additionalProperty === 'string'
        ? `Unknown name "${params.additionalProperty}": Cannot find field.`
        : typeof params.missingProperty === 'string'
          ? `Missing required field "${params.missingProperty}".`
          : `${field || 'value'} ${v.message ?? 'is invalid'}.`;
    return { field: field || (err.validationContext ?? 'body'), description };
  });
  const first = violations[0];
  const message = first ? `Invalid value at '${first.field}': ${first.description}` : 'Invalid request.';
  return new AppError('INVALID_ARGUMENT', message, { fieldViolations: violations });
}

/** Maps anything thrown in a request to an AppError; unknown errors become INTERNAL. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as FastifyError & { status?: number; type?: string };
  if (e?.validation) return fromValidation(e);
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_ARGUMENT', `Invalid JSON payload received. ${e.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('REQUEST_TOO_LARGE', `Request payload size exceeds the limit: ${BODY_LIMIT_BYTES} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type; send application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_ARGUMENT', 'Request body size did not match Content-Length.');
  }
  if (e instanceof SyntaxError || e?.type === 'entity.parse.failed') {
    return new AppError('INVALID_ARGUMENT', `Invalid JSON payload received. ${e.message}`);
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 413) return new AppError('REQUEST_TOO_LARGE', 'Request payload is too large.');
    if (e.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', e.message);
    if (e.statusCode === 404) return new AppError('NOT_FOUND', 'Not found.');
    return new AppError('INVALID_ARGUMENT', e.message);
  }
  if (isDatabaseUnavailable(err)) {
    return new AppError('UNAVAILABLE', 'The service is temporarily unavailable: its database cannot be reached. Retry later.', {
      retryAfter: 5,
      cause: err,
    });
  }
  return new AppError('INTERNAL', 'Internal error encountered.', { cause: err });
}

export function errorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(err);
  if (appError.code === 'UNAVAILABLE') {
    // Overload, draining or a store out of reach: expected under load, and one line each (no stack;
    // the cause's message says which store) — at error level with traces they drowned the logs.
    const cause = appError.options.cause;
    request.log.warn({ code: appError.code, ...(cause instanceof Error ? { cause: cause.message } : {}) }, appError.message);
  } else if (appError.statusCode >= 500) {
    request.log.error({ err: appError.options.cause ?? err, code: appError.code }, 'request failed');
  } else {
    request.log.info({ code: appError.code, statusCode: appError.statusCode }, appError.message);
  }
  const { headers, retryAfter } = appError.options;
  if (headers) void reply.headers(headers);
  if (retryAfter !== undefined) void reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
  void reply.code(appError.statusCode).type('application/json; charset=utf-8').send(appError.bodyJson);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  errorHandler(
    new AppError('NOT_FOUND', `The requested URL ${request.method} ${redactUrl(request.url.split('?')[0])} was not found on this server.`),
    request,
    reply,
  );
}
