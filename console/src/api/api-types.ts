/**
 * The resources of the public JSON API (docs: /docs, API.md), as the console reads and sends them:
 * the server's own TypeBox schemas, imported as types only. esbuild erases these imports (the bundle
 * holds no server code; `console-build.ts` refuses one that would), and `tsc -p console`, run by
 * `npm test` (test/console-types.test.ts), checks every screen against the schemas the routes serve.
 */
import type { KeyRestrictions } from '../../../src/api-keys/api-keys-schemas.ts';

export type { AccountToken, CreatedToken, TokenList, Whoami } from '../../../src/accounts/accounts-schemas.ts';
export type {
  ApiKey,
  ApiKeyList,
  CreateApiKeyBody,
  CreatedApiKey,
  KeyRestrictions,
  RestrictionsInput,
  RotateApiKeyBody,
  RotatedApiKey,
  UpdateApiKeyBody,
} from '../../../src/api-keys/api-keys-schemas.ts';
export type { AuditEntry, AuditList } from '../../../src/audit/audit-schemas.ts';
export type {
  AuthMethod,
  ClientSecret,
  ClientSecretCreateBody,
  ClientSecretCreated,
  ClientSecretList,
  GrantType,
  OAuthClient,
  OAuthClientCreateBody,
  OAuthClientCreated,
  OAuthClientList,
} from '../../../src/oauth-clients/oauth-clients-schemas.ts';
export type { ApiName } from '../../../src/projects/api-catalog.ts';
export type { Catalog, CatalogApi, ProjectApi, ProjectApiList } from '../../../src/projects/project-apis-schemas.ts';
export type { CreateProjectBody, Project, ProjectList } from '../../../src/projects/projects-schemas.ts';
export type { UsageEntry, UsageResponse, UsageTotal } from '../../../src/usage/usage-schemas.ts';

/** One entry of `restrictions.androidApps`. */
export type AndroidApp = NonNullable<KeyRestrictions['androidApps']>[number];
export type { ProjectOperation, ProjectOperationList } from '../../../src/operations/operations-schemas.ts';
