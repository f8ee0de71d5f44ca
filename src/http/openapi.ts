import type { SwaggerOptions } from '@fastify/swagger';
import { isIdempotentRoute } from '../idempotency/idempotency-plugin.ts';
import { BatchAnnotateImagesResponseSchema } from '../vision/vision-response-schema.ts';
import { ErrorBodySchema } from './error-body-schema.ts';

/**
 * The OpenAPI document: Fastify's swagger plugin turns every route's TypeBox schemas into paths;
 * `completeDocument` then adds what routes do not declare one by one — operationIds, Google's error
 * responses, `Idempotency-Key`, the `/v1` alias and the Vision response — from the same schemas and
 * rules the routes use, so a new route is documented completely without extra work.
 * `test/openapi.test.ts` runs `redocly lint` (recommended rules) on the result.
 */

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked as untyped JSON.
type Json = Record<string, any>;

/** A 435-byte PNG reading "Legible": Swagger UI's "Try it out" sends a request the server reads. */
const EXAMPLE_IMAGE =
  'iVBORw0KGgoAAAANSUhEUgAAAKAAAAAwAgMAAADrx5n9AAAADFBMVEX///8LCwtra2u8vLwDoQScAAAACXBIWXMAAAsTAAALEwEAmpwYAAABTUlEQVR42u3UMW6DMBQA0A8WgyuhTOEGHIElqlQfIUM/oISBvZXqI3AIoGsXthyCQxSy9ABVp66RkNJvk0qt8hshtZkaDwbMk/D/3x+Ay/iv4xoGmmct9068f3nYQkmzVBz087NC+DO42ABcbW4o6nLxZKBZYKBAbKGLA7PHKjGwwoKD/qrRIm5qgvWqaqVy4ibnoKf9pZO5McGqiJRUUrsZB8NWZFKDhbQgVVRAysEAIPUU9AQfwVlKFY7hH8Ge1r0CAgtdgnOAZw52iLcHWI4QMfkV3NL1Gwx+qExv4Gcwhz2ycD4W2CYcHEpP2PIwLMxVjHmUmvLIHAv/Yb/3cnhxk52FOjSVyeD1CCLGDmJG58DssY6Rau0iphwklEOU2qi7tdluh/ds982GsRHMrW02MZxq1nJaT7cineTE3S6bBhH1tE+/rS+/1LOPD0w/dOCrAsHDAAAAAElFTkSuQmCC';

const ERROR_RESPONSES: Record<string, string> = {
  '400':
    'INVALID_ARGUMENT / FAILED_PRECONDITION: a bad field (named in `BadRequest.fieldViolations`), a malformed request, or a state that forbids the call.',
  '401':
    'UNAUTHENTICATED: no credential (`CREDENTIALS_MISSING`), an invalid, revoked or expired one, or the wrong kind (`ACCESS_TOKEN_TYPE_UNSUPPORTED`).',
  '403':
    'PERMISSION_DENIED: the API is not enabled on the project (`SERVICE_DISABLED`) or a key restriction refused the call (`API_KEY_*_BLOCKED`).',
  '404': 'NOT_FOUND: no such resource, or it belongs to another account.',
  '409': 'ALREADY_EXISTS, or `IDEMPOTENCY_KEY_IN_USE` while the first request with this Idempotency-Key is still running.',
  '413': 'OUT_OF_RANGE (`REQUEST_TOO_LARGE`): the body is over 10 MB.',
  '415': 'INVALID_ARGUMENT (`UNSUPPORTED_MEDIA_TYPE`): send `Content-Type: application/json`.',
  '422': '`IDEMPOTENCY_KEY_MISMATCH`: this Idempotency-Key was used with a different request.',
  '429': "RESOURCE_EXHAUSTED (`RATE_LIMIT_EXCEEDED`): the project's requestsPerMinute; see `Retry-After`.",
  '503': 'UNAVAILABLE: the store is unreachable, the node is draining or the OCR queue is full; retry after `Retry-After`.',
};

/** Names an operation like Google's discovery documents do: resource path + method (`projects.apiKeys.rotate`). */
const OPERATION_OVERRIDES: Record<string, string> = {
  'GET /healthz': 'health.live',
  'GET /readyz': 'health.ready',
  'GET /api/whoami': 'whoami.get',
  'GET /api/apis': 'apis.list',
  'POST /api/projects/{project}/apis': 'projects.apis.enable',
  'DELETE /api/projects/{project}/apis/{api}': 'projects.apis.disable',
  'GET /api/projects/{project}/usage': 'projects.usage.get',
  'GET /api/accounts/{account}/audit-log': 'accounts.auditLog.list',
};

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export function operationIdOf(method: string, path: string): string {
  const override = OPERATION_OVERRIDES[`${method.toUpperCase()} ${path}`];
  if (override) return override;
  const segments = path.split('/').filter((s) => s && s !== 'api' && s !== 'v1');
  const last = segments.at(-1) ?? '';
  const [lastName, customVerb] = last.split(':');
  const names = [...segments.slice(0, -1), lastName].filter((s) => !s.startsWith('{')).map(camel);
  const onItem = lastName.startsWith('{');
  const verb =
    customVerb ??
    ({ GET: onItem ? 'get' : 'list', POST: 'create', PATCH: 'patch', PUT: 'update', DELETE: 'delete' } as Record<string, string>)[
      method.toUpperCase()
    ] ??
    method.toLowerCase();
  return [...names, verb].join('.');
}

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A unique key (1–255 visible ASCII characters, e.g. a UUID) per logical request. A retry with the same key and request returns the first response again (`Idempotent-Replayed: true`); secrets are not replayed. Kept 24 h per account.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

function errorResponsesFor(method: string, path: string, op: Json): string[] {
  const secured = (op.security ?? []).length > 0;
  const hasBody = op.requestBody !== undefined;
  const codes = new Set<string>();
  if (hasBody || (op.parameters ?? []).some((p: Json) => p.in === 'query' || p.in === 'path')) codes.add('400');
  if (secured) ['401', '403', '503'].forEach((c) => codes.add(c));
  if (path.includes('{')) codes.add('404');
  if (hasBody) ['413', '415'].forEach((c) => codes.add(c));
  if (isIdempotentRoute(method.toUpperCase(), path)) ['409', '422'].forEach((c) => codes.add(c));
  if (path.endsWith(':annotate')) codes.add('429');
  if (path === '/readyz') codes.add('503');
  // Any route answers a malformed URL or header with 400 (Fastify's framework errors, same envelope).
  if (![...codes].some((c) => c.startsWith('4'))) codes.add('400');
  return [...codes].sort();
}

/** Adds operationIds, error responses, Idempotency-Key, the Vision response and the `/v1` alias. */
export function completeDocument(document: Json): Json {
  const doc = structuredClone(document) as Json;
  doc.components ??= {};
  doc.components.schemas = {
    ...(doc.components.schemas ?? {}),
    GoogleError: ErrorBodySchema,
    BatchAnnotateImagesResponse: BatchAnnotateImagesResponseSchema,
  };
  doc.components.responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([code, description]) => [
      `Error${code}`,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/GoogleError' } } } },
    ]),
  );
  doc.components.responses.ErrorDefault = {
    description: 'Any other error, in the same envelope (500 INTERNAL, 501, 504).',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/GoogleError' } } },
  };

  // The alias Google's client libraries call (`/v1/images:annotate`, no path prefix): the same operation.
  const vision = doc.paths?.['/api/vision/v1/images:annotate'];
  if (vision && !doc.paths['/v1/images:annotate']) {
    const alias = structuredClone(vision);
    alias.post.summary = `${alias.post.summary} — Google's path`;
    alias.post.description = `The same operation at Google's own path, for client libraries that take only a host and port (\`@google-cloud/vision\` with \`fallback: 'rest'\`). ${alias.post.description ?? ''}`;
    doc.paths['/v1/images:annotate'] = alias;
  }

  // Fastify's wildcard (`*`, the Cloud Storage object name, which may hold slashes) as a named parameter.
  for (const path of Object.keys(doc.paths ?? {}).filter((p) => p.includes('{*}'))) {
    const item = doc.paths[path];
    for (const op of Object.values<Json>(item)) for (const p of op.parameters ?? []) if (p.name === '*') p.name = 'object';
    delete doc.paths[path];
    doc.paths[path.replace('{*}', '{object}')] = item;
  }

  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      op.operationId ??= operationIdOf(method, path);
      op.summary ??= `${method.toUpperCase()} ${path}`;
      // Unauthenticated operations say so (probes): security `[]` overrides nothing, it documents.
      op.security ??= [];
      if (isIdempotentRoute(method.toUpperCase(), path) && !(op.parameters ?? []).some((p: Json) => p.name === 'Idempotency-Key')) {
        op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_HEADER];
      }
      if (path.endsWith('images:annotate') || path.endsWith('ocr:annotate')) {
        op.responses['200'] = {
          description: 'One AnnotateImageResponse per request entry; an entry that failed carries its own `error`.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchAnnotateImagesResponse' } } },
        };
        const body = op.requestBody?.content?.['application/json'];
        if (body) body.example = { requests: [{ image: { content: EXAMPLE_IMAGE }, features: [{ type: 'TEXT_DETECTION' }] }] };
      }
      if (path.endsWith(':annotate') && path !== '/api/projects/{project}/ocr:annotate') {
        op.security = [{ apiKey: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }];
      }
      for (const code of errorResponsesFor(method, path, op)) op.responses[code] ??= { $ref: `#/components/responses/Error${code}` };
      op.responses.default ??= { $ref: '#/components/responses/ErrorDefault' };
    }
  }
  return doc;
}

/** `@fastify/swagger`'s options: the document's header and the completion above. */
export function swaggerOptions(): SwaggerOptions {
  return {
    openapi: {
      info: {
        title: 'Legible API',
        version: '1',
        description:
          "Projects, API keys and Google-Vision-compatible text recognition. Errors use Google's envelope (`error.details[0].reason`, docs/errors.md).",
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      },
      // Relative: Swagger UI and clients call the server that served the document.
      servers: [{ url: '/', description: 'The server that serves this document' }],
      components: {
        securitySchemes: {
          accountToken: { type: 'http', scheme: 'bearer', description: 'Account token `lgb_at_…` (setup operations, console).' },
          apiKey: { type: 'http', scheme: 'bearer', description: 'API key as a bearer token (`Authorization: Bearer <key>`).' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Goog-Api-Key', description: "API key in Google's header." },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'API key as `?key=`, as Google accepts it.' },
        },
      },
    },
    transformObject: (documentObject) => completeDocument((documentObject as { openapiObject: Json }).openapiObject),
  } as SwaggerOptions;
}
