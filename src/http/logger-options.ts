import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry credentials (Google's `?key=`, OAuth's `access_token`). */
const SECRET_QUERY = /([?&](?:key|access_token|oauth_token|token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[REDACTED]');
}

/**
 * pino options: request ids on every line, credentials redacted from headers and URLs.
 * https://getpino.io/#/docs/redaction
 */
export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-goog-api-key"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req(req: { method: string; url: string; headers: Record<string, unknown>; ip?: string; id?: string }) {
        return {
          method: req.method,
          url: redactUrl(req.url),
          ip: req.ip,
          userAgent: req.headers?.['user-agent'],
        };
      },
    },
  };
}
