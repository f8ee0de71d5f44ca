/** Socket-level failures reaching the database server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * PostgreSQL SQLSTATEs meaning "the server cannot serve you now" (https://www.postgresql.org/docs/current/errcodes-appendix.html),
 * including a database, schema or table that is not there: every table exists once migrated, so a
 * missing one means the store was dropped or replaced, not a wrong query (`/readyz` migrates it back).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '58030', '3D000', '3F000', '42P01']);

/** node-postgres reports lost or refused connections with these messages and no code. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection refused',
  'the database system is',
];

/**
 * True when `err` (or its `cause`, or any error of an AggregateError) says the store is out of
 * reach rather than that the query was wrong: such failures are answered 503 UNAVAILABLE with
 * `Retry-After`, never 500, and the pool reconnects on its own when the store returns.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || code === 'SQLITE_BUSY') return true;
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // SQLite: the file was replaced by an empty one (or its tables dropped).
  if (code === 'SQLITE_ERROR' && typeof e.message === 'string' && e.message.startsWith('no such table')) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
