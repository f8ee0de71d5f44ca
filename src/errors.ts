/**
 * The only error vocabulary of Legible. Each code maps to exactly one HTTP status and one
 * `google.rpc.Code` name, and is sent to clients inside Google's error envelope
 * (https://cloud.google.com/apis/design/errors). Every code is documented in docs/errors.md
 * (a test enforces it). Throw `new AppError('CODE', message)`; never a free string.
 */
export const ERROR_CATALOGUE = {
  // 400
  INVALID_ARGUMENT: { http: 400, status: 'INVALID_ARGUMENT' },
  FAILED_PRECONDITION: { http: 400, status: 'FAILED_PRECONDITION' },
  // 401
  CREDENTIALS_MISSING: { http: 401, status: 'UNAUTHENTICATED' },
  API_KEY_INVALID: { http: 401, status: 'UNAUTHENTICATED' },
  ACCESS_TOKEN_INVALID: { http: 401, status: 'UNAUTHENTICATED' },
  /** A valid credential of the wrong kind: an API key on a setup route, an account token on OCR. */
  ACCESS_TOKEN_TYPE_UNSUPPORTED: { http: 401, status: 'UNAUTHENTICATED' },
  // 403
  API_KEY_SERVICE_BLOCKED: { http: 403, status: 'PERMISSION_DENIED' },
  API_KEY_IP_ADDRESS_BLOCKED: { http: 403, status: 'PERMISSION_DENIED' },
  API_KEY_HTTP_REFERRER_BLOCKED: { http: 403, status: 'PERMISSION_DENIED' },
  API_KEY_ANDROID_APP_BLOCKED: { http: 403, status: 'PERMISSION_DENIED' },
  API_KEY_IOS_APP_BLOCKED: { http: 403, status: 'PERMISSION_DENIED' },
  SERVICE_DISABLED: { http: 403, status: 'PERMISSION_DENIED' },
  // 404
  NOT_FOUND: { http: 404, status: 'NOT_FOUND' },
  // 405
  METHOD_NOT_ALLOWED: { http: 405, status: 'UNIMPLEMENTED' },
  // 409
  ALREADY_EXISTS: { http: 409, status: 'ALREADY_EXISTS' },
  IDEMPOTENCY_KEY_IN_USE: { http: 409, status: 'ABORTED' },
  // 413, 415, 422
  REQUEST_TOO_LARGE: { http: 413, status: 'OUT_OF_RANGE' },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, status: 'INVALID_ARGUMENT' },
  IDEMPOTENCY_KEY_MISMATCH: { http: 422, status: 'INVALID_ARGUMENT' },
  // 429
  RATE_LIMIT_EXCEEDED: { http: 429, status: 'RESOURCE_EXHAUSTED' },
  // 5xx
  INTERNAL: { http: 500, status: 'INTERNAL' },
  UNIMPLEMENTED: { http: 501, status: 'UNIMPLEMENTED' },
  UNAVAILABLE: { http: 503, status: 'UNAVAILABLE' },
  DEADLINE_EXCEEDED: { http: 504, status: 'DEADLINE_EXCEEDED' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** `google.rpc.Code` numbers, used for per-image errors inside a 200 batch response. */
export const GRPC_CODES = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export interface FieldViolation {
  /** Path in the request, Google style: `requests[0].image.content`, `projectId`. */
  field: string;
  description: string;
}

export interface AppErrorOptions {
  /** ErrorInfo.metadata: string values only (google.rpc.ErrorInfo). */
  metadata?: Record<string, string>;
  fieldViolations?: FieldViolation[];
  /** Seconds, sent as `Retry-After` (429/503). */
  retryAfter?: number;
  /** Extra response headers, e.g. `X-RateLimit-*`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly options: AppErrorOptions;
  #bodyJson: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    // A 4xx is an answer, not a bug: no stack trace. Capturing one was the largest single cost of
    // refusing a request on the API-key path (docs/decisions.md "Refusing a key is cheap"); 5xx keep theirs.
    const stackTraceLimit = Error.stackTraceLimit;
    if (ERROR_CATALOGUE[code].http < 500) Error.stackTraceLimit = 0;
    try {
      super(message, options.cause === undefined ? undefined : { cause: options.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_CATALOGUE[code].http;
    this.options = options;
  }

  /**
   * `toErrorBody(this)` as JSON, serialized on first use only: the key verifier answers its
   * refusals from prebuilt errors (per api, per cached key), so a refused request costs no serialization.
   */
  get bodyJson(): string {
    this.#bodyJson ??= JSON.stringify(toErrorBody(this));
    return this.#bodyJson;
  }
}

export const ERROR_DOMAIN = 'legible';

export interface ErrorBody {
  error: {
    code: number;
    status: string;
    message: string;
    details?: Array<Record<string, unknown>>;
  };
}

/** Google's envelope (`google.rpc.Status` as JSON). 5xx messages are replaced: internals never leak. */
export function toErrorBody(err: AppError): ErrorBody {
  const entry = ERROR_CATALOGUE[err.code];
  const isServerError = entry.http >= 500;
  const message = isServerError && err.code === 'INTERNAL' ? 'Internal error encountered.' : err.message;
  const details: Array<Record<string, unknown>> = [];
  if (err.code !== 'INTERNAL') {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: err.code,
      domain: ERROR_DOMAIN,
      ...(err.options.metadata ? { metadata: err.options.metadata } : {}),
    });
  }
  if (err.options.fieldViolations?.length) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: err.options.fieldViolations,
    });
  }
  return {
    error: {
      code: entry.http,
      status: entry.status,
      message,
      ...(details.length ? { details } : {}),
    },
  };
}
