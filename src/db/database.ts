import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, SqliteDialect } from 'kysely';
import { OwnSchemaPostgresDialect } from './own-schema-postgres-dialect.ts';
import type { Database } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Closes the pool / file handle. */
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: run every connection in this schema (tests isolate themselves this way). */
  schema?: string;
}

/**
 * The only place that knows which database we run on: `sqlite://<file>` (embedded, WAL) or
 * `postgres://…`. Everything above talks to Kysely.
 */
export function createDatabase(databaseUrl: string, options: DatabaseOptions = {}): DatabaseHandle {
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client that loses its server emits 'error'; without a listener the process dies.
    pool.on('error', () => {});
    // A checked-out client (e.g. inside a transaction) whose server goes away emits 'error' with no
    // pool listener attached: without this the process crashes. The failure still reaches the
    // caller as a rejected query (→ 503 UNAVAILABLE), and the pool reconnects when the server returns.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  const file = databaseUrl.replace(/^sqlite:\/\//, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL makes every commit durable before we answer 2xx (WAL's NORMAL may lose the last commits on power loss).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}
