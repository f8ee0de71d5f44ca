/**
 * The console's only way to the server: the public JSON API, same origin, with the account token
 * as a Bearer credential. Failures become `ApiError` carrying the API's own `error.message`
 * (Google's `google.rpc.Status` envelope), so screens can show exactly what the server said.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly reason?: string;
  readonly fieldViolations: Array<{ field: string; description: string }>;

  constructor(status: number, message: string, reason?: string, fieldViolations: ApiError['fieldViolations'] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.reason = reason;
    this.fieldViolations = fieldViolations;
  }
}

interface ErrorEnvelope {
  error?: {
    message?: string;
    details?: Array<{ reason?: string; fieldViolations?: Array<{ field: string; description: string }> }>;
  };
}

export interface ApiClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as ErrorEnvelope;
  const details = body.error?.details ?? [];
  const reason = details.find((d) => d.reason)?.reason;
  const violations = details.flatMap((d) => d.fieldViolations ?? []);
  const message = body.error?.message ?? `The server answered ${response.status} ${response.statusText}.`;
  return new ApiError(response.status, message, reason, violations);
}

/** A client that sends `Authorization: Bearer <credential>` on every call. */
export function createApiClient(credential: string, onUnauthenticated?: (err: ApiError) => void): ApiClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${credential}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'Could not reach the Legible server. Check your connection and try again.');
    }
    if (!response.ok) {
      const err = await toApiError(response);
      if (response.status === 401) onUnauthenticated?.(err);
      throw err;
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body ?? {}),
    patch: (path, body) => call('PATCH', path, body),
    del: (path) => call('DELETE', path),
  };
}

/** Builds a path from a template and values, encoding each value (ids come from users and servers). */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}
