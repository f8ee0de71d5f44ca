import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** Deeper than any setup request's schema; deeper values were already refused by it. */
const MAX_DEPTH = 32;

interface Unstorable {
  field: string;
  description: string;
}

function firstUnstorable(value: unknown, at: string, depth: number): Unstorable | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { field: at, description: 'must be a finite number.' };
  if (typeof value === 'string')
    return value.includes('\u0000') ? { field: at, description: 'must not contain NUL (U+0000) characters.' } : undefined;
  // Bytes (a decoded image) are not text: never walked.
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return { field: at, description: 'must not contain NUL (U+0000) characters.' };
    const found = firstUnstorable(v, Array.isArray(value) ? `${at}[${k}]` : at ? `${at}.${k}` : k, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Every number a route receives is finite, and no string holds U+0000 (PostgreSQL's text type cannot
 * store it: `%00` in an id or a name was a 500 there, and accepted on SQLite). Ajv's type coercion turns `"Infinity"`, `"-Infinity"`
 * and `"1e309"` into ±Infinity and then skips the type's own checks (ajv 8.20, even with
 * `strictNumbers`), and the JSON literal `1e309` parses to Infinity: without this, such values
 * reached the store (an unlimited quota) or the serializer (500). Runs after schema validation
 * (which coerced the values), before any route's own preHandler (idempotency claims included).
 */
export async function refuseUnstorableInput(request: FastifyRequest): Promise<void> {
  for (const value of [request.body, request.query, request.params]) {
    const found = firstUnstorable(value, '', 0);
    if (found !== undefined) {
      const field = found.field || 'value';
      throw new AppError('INVALID_ARGUMENT', `Invalid value at '${field}': ${field} ${found.description}`, {
        fieldViolations: [{ field, description: found.description }],
      });
    }
  }
}
