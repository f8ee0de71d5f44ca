import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { DatabaseHandle } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { migrateToLatest, schemaIsCurrent } from '../db/migrate.ts';

const Status = Type.Object({ status: Type.String() });

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the store answers, with our schema). */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle; isDraining?: () => boolean }> = async (
  app,
  { database, isDraining },
) => {
  let migrating: Promise<void> | undefined;
  app.get('/healthz', { schema: { tags: ['operations'], response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['operations'], response: { 200: Status } } }, async () => {
    if (isDraining?.()) throw new AppError('UNAVAILABLE', 'This node is shutting down (draining).', { retryAfter: 1 });
    try {
      await sql`select 1`.execute(database.db);
    } catch (cause) {
      throw new AppError('UNAVAILABLE', 'The database is not reachable.', { retryAfter: 5, cause });
    }
    // A store that answers without our schema (dropped and recreated): migrate it as start-up does
    // (under Kysely's migration lock, one attempt at a time), and stay unready until that worked.
    if (!(await schemaIsCurrent(database.db).catch(() => false))) {
      migrating ??= migrateToLatest(database.db)
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => (migrating = undefined));
      await migrating;
      if (!(await schemaIsCurrent(database.db).catch(() => false))) {
        throw new AppError('UNAVAILABLE', 'The database schema is missing or out of date and could not be migrated yet.', {
          retryAfter: 5,
        });
      }
    }
    return { status: 'ready' };
  });
};
