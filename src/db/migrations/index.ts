import type { Migration } from 'kysely';
import * as platform0001 from './0001-platform.ts';
import * as oauthClients0002 from './0002-oauth-clients.ts';
import * as usage0003 from './0003-usage.ts';
import * as idempotency0004 from './0004-idempotency.ts';
import * as visionOperations0005 from './0005-vision-operations.ts';
import * as usageByKey0006 from './0006-usage-by-key.ts';

/**
 * Every migration, listed explicitly in order (no folder scanning). Each is written with Kysely's
 * schema builder so one migration serves SQLite and PostgreSQL.
 */
export const migrations: Record<string, Migration> = {
  '0001-platform': platform0001,
  '0002-oauth-clients': oauthClients0002,
  '0003-usage': usage0003,
  '0004-idempotency': idempotency0004,
  '0005-vision-operations': visionOperations0005,
  '0006-usage-by-key': usageByKey0006,
};
