import type { RouteOptions } from 'fastify';

/**
 * The routes the app registered (collected by `buildTestApp` through Fastify's `onRoute` hook), each
 * classified by the credential it takes. The auth matrix runs over this list, so a new route is
 * either covered or, while unclassified, fails the suite with its name.
 */
export type AuthKind = 'accountToken' | 'apiKey' | 'public';

export interface RegisteredRoute {
  method: string;
  /** Fastify's pattern, e.g. `/api/projects/:project/api-keys/:keyId(^[A-Za-z0-9_-]+)::rotate`. */
  url: string;
  auth: AuthKind | undefined;
}

/**
 * Routes that declare no `security` in their schema, by `METHOD pattern`. Public ones answer
 * without a credential; the two storage routes hidden from OpenAPI check an API key like their
 * documented twins.
 */
const UNDECLARED: Record<string, AuthKind> = {
  'GET /metrics': 'public',
  'GET /openapi.json': 'public',
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'GET /console': 'public',
  'GET /console/': 'public',
  'GET /docs/': 'public',
  'GET /docs/static/index.html': 'public',
  'GET /docs/static/swagger-initializer.js': 'public',
  'GET /docs/json': 'public',
  'GET /docs/yaml': 'public',
  'GET /docs/static/*': 'public',
  'GET /console/assets/*': 'public',
  // Vision methods Legible does not implement: Google's 404/501 envelope (and CORS preflight), before any key.
  ...Object.fromEntries(
    ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'].flatMap((m) => [
      [`${m} /api/vision/v1/*`, 'public'],
      [`${m} /v1/*`, 'public'],
    ]),
  ),
  'GET /storage/v1/b/:bucket': 'apiKey',
  'GET /download/storage/v1/b/:bucket/o/*': 'apiKey',
};

function declaredAuth(route: RouteOptions): AuthKind | undefined {
  const security = (route.schema as { security?: Array<Record<string, unknown>> } | undefined)?.security;
  if (security?.length !== 1) return undefined;
  const schemes = Object.keys(security[0]);
  if (schemes.length !== 1) return undefined;
  return schemes[0] === 'accountToken' ? 'accountToken' : schemes[0] === 'apiKey' ? 'apiKey' : undefined;
}

/** One entry per method and pattern; HEAD twins of GET routes are left out (they answer as the GET does). */
export function classifyRoutes(routes: RouteOptions[]): RegisteredRoute[] {
  return routes.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .map((method) => ({
        method,
        url: route.url,
        auth: declaredAuth(route) ?? UNDECLARED[`${method} ${route.url}`],
      })),
  );
}

/** The pattern filled in with ids (`:project` → `ids.project`; a `::` is a literal colon). */
export function fillPattern(url: string, ids: Record<string, string>): string {
  return url
    .replace(/::/g, '\0')
    .replace(/:(\w+)(\([^)]*\))?/g, (_, name: string) => {
      const id = ids[name];
      if (id === undefined) throw new Error(`no id for :${name} in ${url}`);
      return id;
    })
    .replace(/\0/g, ':');
}
