import { AppError } from '../errors.ts';
import { API_NAMES, type ApiName } from '../projects/api-catalog.ts';
import { serviceDisabled } from '../projects/service-disabled.ts';

/** A refused key: the error to answer with (see `KeyVerifier.verify` for the order of checks). */
export interface KeyRefusal {
  readonly ok: false;
  readonly error: AppError;
}

export const refusal = (error: AppError): KeyRefusal => ({ ok: false, error });

function perApi(build: (api: ApiName) => AppError): Readonly<Record<ApiName, KeyRefusal>> {
  return Object.fromEntries(API_NAMES.map((api) => [api, refusal(build(api))])) as Record<ApiName, KeyRefusal>;
}

const INVALID_MESSAGE = 'API key not valid. Please pass a valid API key.';

/*
 * The refusals that read the same for every request are built once, so refusing a request
 * allocates no error and serializes no body (`AppError.bodyJson`): the auth path is what a flood
 * of bad keys costs us (`npm run bench:load`, part (a)).
 */
export const CREDENTIALS_MISSING = refusal(
  new AppError(
    'CREDENTIALS_MISSING',
    'The request is missing a valid API key. Send it as `Authorization: Bearer <key>`, `X-Goog-Api-Key: <key>` or `?key=<key>`.',
  ),
);
export const KEY_INVALID = perApi((api) => new AppError('API_KEY_INVALID', INVALID_MESSAGE, { metadata: { service: api } }));
export const KEY_EXPIRED = perApi(
  (api) => new AppError('API_KEY_INVALID', 'API key expired. Please renew the API key.', { metadata: { service: api } }),
);
export const NOT_AN_API_KEY = perApi(
  (api) =>
    new AppError(
      'ACCESS_TOKEN_TYPE_UNSUPPORTED',
      `Account tokens and client secrets cannot call the ${api} API; use an API key of the project.`,
      { metadata: { service: api } },
    ),
);

/** What a key's project and service restrictions say about one api: fixed while the key is cached. */
export interface KeyServices {
  projectId: string;
  projectState: string;
  apis: ReadonlyMap<string, { state: string }>;
  services: ReadonlySet<string>;
}

/**
 * The refusal of `api` for every request with this key, or `undefined`: the project not ACTIVE or
 * the api not ENABLED → 403 SERVICE_DISABLED; the api not in the key's services → 403
 * API_KEY_SERVICE_BLOCKED. Built when the key is loaded into the cache, once per api.
 */
export function serviceRefusal(key: KeyServices, api: ApiName): KeyRefusal | undefined {
  const project = key.projectId;
  const meta = { service: api, project, consumer: `projects/${project}` };
  const disabled = serviceDisabled({ projectId: project, state: key.projectState }, api, key.apis.get(api)?.state, 'key');
  if (disabled) return refusal(disabled);
  if (!key.services.has(api)) {
    return refusal(
      new AppError('API_KEY_SERVICE_BLOCKED', `Requests to this API ${api} are blocked by the key's service restrictions.`, {
        metadata: { ...meta, apiName: api },
      }),
    );
  }
  return undefined;
}
