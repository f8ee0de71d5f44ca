/** True for a unique/primary-key violation on SQLite (better-sqlite3) or PostgreSQL (pg, SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
