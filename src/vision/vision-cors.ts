import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the Vision routes, as Google's endpoint serves it: any origin may call them from a browser
 * (the API key, and its referrer restriction, decide), preflights are answered without a key, and
 * every answer — errors included, so a page can read why it was refused — names the caller's
 * origin. Setup routes have none: account tokens are not for other origins' pages.
 */
const ALLOW_METHODS = 'GET, POST, OPTIONS';
/** Google's answer lists the request's own headers; these cover its client libraries. */
const DEFAULT_ALLOW_HEADERS = 'content-type, x-goog-api-key, x-goog-api-client, x-goog-user-project, authorization, x-request-id';
const MAX_AGE_SECONDS = '3600';

/** First hook of the Vision routes: CORS headers on every answer; a preflight is answered here. */
export async function visionCors(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin.length > 0) {
    void reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  }
  if (request.method !== 'OPTIONS') return undefined;
  const requested = request.headers['access-control-request-headers'];
  return reply
    .code(200)
    .header('access-control-allow-methods', ALLOW_METHODS)
    .header('access-control-allow-headers', typeof requested === 'string' && requested.length <= 1000 ? requested : DEFAULT_ALLOW_HEADERS)
    .header('access-control-max-age', MAX_AGE_SECONDS)
    .header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
    .send();
}
