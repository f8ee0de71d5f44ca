import { apiPath as p, type ApiClient } from './api-client.ts';
import type {
  AccountToken,
  ApiKey,
  ApiKeyList,
  AuditList,
  Catalog,
  ClientSecret,
  ClientSecretCreateBody,
  ClientSecretCreated,
  CreateApiKeyBody,
  CreatedApiKey,
  CreatedToken,
  CreateProjectBody,
  OAuthClient,
  OAuthClientCreateBody,
  OAuthClientCreated,
  Project,
  ProjectApi,
  ProjectApiList,
  RotatedApiKey,
  TokenList,
  UpdateApiKeyBody,
} from './api-types.ts';

/**
 * Every call the console makes, named. These are the public JSON API's routes (API.md §2),
 * nothing console-only except `GET /api/whoami` (token introspection, used at sign-in).
 */

async function listAll<T>(api: ApiClient, path: string, field: string, max = 1000): Promise<T[]> {
  const out: T[] = [];
  let pageToken: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api.get<Record<string, unknown>>(
      `${path}${sep}pageSize=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
    );
    out.push(...((page[field] as T[] | undefined) ?? []));
    pageToken = page.nextPageToken as string | undefined;
  } while (pageToken && out.length < max);
  return out;
}

export const projectsApi = {
  list: (api: ApiClient, account: string) => listAll<Project>(api, p`/api/accounts/${account}/projects`, 'projects'),
  get: (api: ApiClient, project: string) => api.get<Project>(p`/api/projects/${project}`),
  create: (api: ApiClient, account: string, body: CreateProjectBody) => api.post<Project>(p`/api/accounts/${account}/projects`, body),
  remove: (api: ApiClient, project: string) => api.del<Project>(p`/api/projects/${project}`),
};

export const apisApi = {
  catalog: async (api: ApiClient) => (await api.get<Catalog>('/api/apis')).apis,
  list: async (api: ApiClient, project: string) => (await api.get<ProjectApiList>(p`/api/projects/${project}/apis`)).apis,
  enable: (api: ApiClient, project: string, apiName: string) => api.post<ProjectApi>(p`/api/projects/${project}/apis`, { api: apiName }),
  disable: (api: ApiClient, project: string, apiName: string) => api.del<unknown>(p`/api/projects/${project}/apis/${apiName}`),
  setRateLimit: (api: ApiClient, project: string, apiName: string, requestsPerMinute: number) =>
    api.patch<ProjectApi>(p`/api/projects/${project}/apis/${apiName}`, { quota: { requestsPerMinute } }),
};

export const apiKeysApi = {
  list: async (api: ApiClient, project: string) => (await api.get<ApiKeyList>(p`/api/projects/${project}/api-keys?pageSize=100`)).apiKeys,
  create: (api: ApiClient, project: string, body: CreateApiKeyBody) => api.post<CreatedApiKey>(p`/api/projects/${project}/api-keys`, body),
  rotate: (api: ApiClient, project: string, keyId: string, graceSeconds: number) =>
    api.post<RotatedApiKey>(`${p`/api/projects/${project}/api-keys/${keyId}`}:rotate`, { graceSeconds }),
  revoke: (api: ApiClient, project: string, keyId: string) => api.del<unknown>(p`/api/projects/${project}/api-keys/${keyId}`),
  /** Name and restrictions (PATCH; audited as api_key.update). */
  update: (api: ApiClient, project: string, keyId: string, body: Omit<UpdateApiKeyBody, 'expireTime'>) =>
    api.patch<ApiKey>(p`/api/projects/${project}/api-keys/${keyId}`, body),
};

export const oauthApi = {
  list: (api: ApiClient, project: string) => listAll<OAuthClient>(api, p`/api/projects/${project}/oauth-clients`, 'oauthClients'),
  create: (api: ApiClient, project: string, body: OAuthClientCreateBody) =>
    api.post<OAuthClientCreated>(p`/api/projects/${project}/oauth-clients`, body),
  remove: (api: ApiClient, project: string, clientId: string) => api.del<unknown>(p`/api/projects/${project}/oauth-clients/${clientId}`),
  secrets: (api: ApiClient, project: string, clientId: string) =>
    listAll<ClientSecret>(api, p`/api/projects/${project}/oauth-clients/${clientId}/secrets`, 'secrets'),
  addSecret: (api: ApiClient, project: string, clientId: string, body: ClientSecretCreateBody) =>
    api.post<ClientSecretCreated>(p`/api/projects/${project}/oauth-clients/${clientId}/secrets`, body),
  revokeSecret: (api: ApiClient, project: string, clientId: string, secretId: string) =>
    api.del<unknown>(p`/api/projects/${project}/oauth-clients/${clientId}/secrets/${secretId}`),
};

export const tokensApi = {
  list: async (api: ApiClient, account: string) =>
    (await api.get<TokenList>(`${p`/api/accounts/${account}/tokens`}?pageSize=100&showRevoked=true`)).tokens,
  create: (api: ApiClient, account: string) => api.post<CreatedToken>(p`/api/accounts/${account}/tokens`, {}),
  revoke: (api: ApiClient, account: string, tokenId: string) => api.del<AccountToken>(p`/api/accounts/${account}/tokens/${tokenId}`),
};

export const auditApi = {
  page: (api: ApiClient, account: string, pageToken?: string) =>
    api.get<AuditList>(
      `${p`/api/accounts/${account}/audit-log`}?pageSize=50${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
    ),
};
