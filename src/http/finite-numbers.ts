import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** Deeper than any setup request's schema; deeper values were already refused by it. */
const MAX_DEPTH = 32;

function firstNonFinite(value: unknown, at: string, depth: number): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = firstNonFinite(v, Array.isArray(value) ? `${at}[${k}]` : at ? `${at}.${k}` : k, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Every number a route receives is finite. Ajv's type coercion turns `"Infinity"`, `"-Infinity"`
 * and `"1e309"` into ±Infinity and then skips the type's own checks (ajv 8.20, even with
 * `strictNumbers`), and the JSON literal `1e309` parses to Infinity: without this, such values
 * reached the store (an unlimited quota) or the serializer (500). Runs after schema validation
 * (which coerced the values), before any route's own preHandler (idempotency claims included).
 */
export async function refuseNonFiniteNumbers(request: FastifyRequest): Promise<void> {
  for (const value of [request.body, request.query, request.params]) {
    const field = firstNonFinite(value, '', 0);
    if (field !== undefined) {
      const description = 'must be a finite number.';
      throw new AppError('INVALID_ARGUMENT', `Invalid value at '${field}': ${field} ${description}`, { fieldViolations: [{ field, description }] });
    }
  }
}
