import { Migrator, PostgresAdapter, sql, type Kysely, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.ts';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws (with the failing migration's name) when one fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Kysely's "does the migration table exist" check matches that table in *any* schema unless told
  // which one; with several schemas on one server (parallel tests, several deployments) it would
  // skip creating ours. Pin it to the connection's current schema.
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const where = failed ? ` in migration ${failed.migrationName}` : '';
    throw new Error(`Database migration failed${where}: ${(error as Error).message ?? error}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The last migration this code knows. */
const LATEST = Object.keys(migrations).at(-1)!;

/**
 * True when the store holds this code's schema: its migration table lists the latest migration.
 * False when the table is missing (a dropped and recreated database) or behind.
 */
export async function schemaIsCurrent(db: Kysely<any>): Promise<boolean> {
  try {
    const row = await sql<{ n: number | string }>`select count(*) as n from kysely_migration where name = ${LATEST}`.execute(db);
    return Number(row.rows[0]?.n) === 1;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '42P01' || code === '3F000' || /no such table/.test((err as Error).message ?? '')) return false;
    throw err;
  }
}
