/** The resources of the public JSON API (docs: /docs, API.md), as the console reads them. */

export interface Whoami {
  accountId: string;
  tokenId: string;
}

export interface Project {
  projectId: string;
  displayName: string;
  state: 'ACTIVE' | 'DELETE_REQUESTED';
  createTime: string;
  updateTime: string;
}

export interface CatalogApi {
  api: string;
  title?: string;
  description?: string;
}

export interface EnabledApi {
  api: string;
  state: 'ENABLED' | 'DISABLED';
  quota?: { requestsPerMinute?: number };
  title?: string;
  updateTime?: string;
}

export interface AndroidApp {
  packageName: string;
  sha1Fingerprint: string;
}

export interface KeyRestrictions {
  services?: string[];
  allowedIps?: string[];
  allowedReferrers?: string[];
  androidApps?: AndroidApp[];
  iosBundleIds?: string[];
}

export interface ApiKey {
  keyId: string;
  displayName?: string;
  hint?: string;
  restrictions?: KeyRestrictions;
  createTime: string;
  updateTime?: string;
  lastUsedTime?: string | null;
  expireTime?: string | null;
  deleteTime?: string | null;
  /** Present only in the answer to create and rotate: shown once. */
  keyString?: string;
}

export interface OAuthClient {
  clientId: string;
  clientName?: string;
  redirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  createTime: string;
  /** Present only in the answer to create (confidential clients): shown once. */
  clientSecret?: string;
}

export interface ClientSecret {
  secretId: string;
  displayName?: string;
  hint: string;
  state: 'ACTIVE' | 'EXPIRED' | 'REVOKED';
  createTime: string;
  expireTime?: string;
  revokeTime?: string;
  lastUsedTime?: string;
  /** Present only in the answer to create: shown once. */
  clientSecret?: string;
}

export interface AuditEntry {
  auditId: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  projectId?: string;
  details: Record<string, unknown>;
  createTime: string;
}

export interface AccountToken {
  tokenId: string;
  accountId: string;
  hint: string;
  createTime: string;
  revokeTime?: string;
}
