import crypto from 'node:crypto';
import pg from 'pg';
import { createDatabase, type DatabaseHandle, type Dialect } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/** The PostgreSQL server the suite also runs against when set (`.ci/run` sets it). */
export const POSTGRES_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/** Every store the suite runs against: SQLite always, PostgreSQL when DATABASE_URL is set. */
export const DIALECTS: Dialect[] = ['sqlite', ...(POSTGRES_URL ? (['postgres'] as const) : [])];

/**
 * A fresh, migrated database: SQLite in memory, or a PostgreSQL schema of its own (dropped on
 * destroy) so test files can run in parallel against one server.
 */
export async function createTestDatabase(dialect: Dialect, file?: string): Promise<DatabaseHandle> {
  if (dialect === 'sqlite') {
    const handle = createDatabase(`sqlite://${file ?? ':memory:'}`);
    await migrateToLatest(handle.db);
    return handle;
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = createDatabase(POSTGRES_URL!, { schema });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async destroy() {
      await handle.destroy();
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
