import type { FastifyServerOptions } from 'fastify';

/** Parameters that carry credentials (Google's `?key=`, OAuth's `access_token`), by decoded name. */
const CREDENTIAL_PARAMS = new Set(['key', 'access_token', 'oauth_token', 'token', 'api_key', 'apikey']);
/** A Legible secret anywhere (a path segment, another parameter): prefix and 20+ body characters. */
const SECRET_TEXT = /lgb_(?:at|key|cs)_[0-9a-z]{20}/i;

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * The URL as logged: the value of every parameter whose name *decodes* to a credential name
 * (`?%6bey=`, `?k%65y=`, `;key=` all reach the key reader or could), and every path segment or
 * parameter that holds a secret, replaced by `[REDACTED]`.
 */
export function redactUrl(url: string): string {
  return url
    .split(/([/?&;#])/)
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq > 0 && CREDENTIAL_PARAMS.has(decode(part.slice(0, eq)).trim().toLowerCase())) return `${part.slice(0, eq)}=[REDACTED]`;
      return SECRET_TEXT.test(decode(part)) ? '[REDACTED]' : part;
    })
    .join('');
}

/**
 * pino options: request ids on every line, credentials redacted from headers and URLs.
 * https://getpino.io/#/docs/redaction
 */
export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-goog-api-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
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
