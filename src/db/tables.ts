import type { AccountsTables } from '../accounts/accounts-tables.ts';
import type { ApiKeysTables } from '../api-keys/api-keys-tables.ts';
import type { AuditTables } from '../audit/audit-tables.ts';
import type { IdempotencyTables } from '../idempotency/idempotency-tables.ts';
import type { OAuthClientsTables } from '../oauth-clients/oauth-clients-tables.ts';
import type { ProjectsTables } from '../projects/projects-tables.ts';
import type { UsageTables } from '../usage/usage-tables.ts';
import type { OperationsTables } from '../operations/operations-tables.ts';

/**
 * The Kysely `Database` interface: one table interface per feature, declared next to the feature
 * (`<feature>-tables.ts`) and composed here.
 */
// Features add their table interfaces to this intersection.
export type Database = Record<never, never> &
  AccountsTables &
  ProjectsTables &
  ApiKeysTables &
  AuditTables &
  OAuthClientsTables &
  IdempotencyTables &
  UsageTables &
  OperationsTables;
