import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError, type FieldViolation } from '../errors.ts';
import { readProtoJson } from './proto-json-reader.ts';

function invalidArgument(violations: FieldViolation[]): AppError {
  const [first] = violations;
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more; see details)` : '';
  return new AppError('INVALID_ARGUMENT', `${first.description}${more}`, { fieldViolations: violations });
}

/** Query parameters: Google rejects unknown ones ("Cannot bind query parameter"), so do we. */
function querystringViolations(schema: TSchema, value: unknown): { value: unknown; violations: FieldViolation[] } {
  const converted = Value.Convert(schema, value ?? {});
  const violations = [...Value.Errors(schema, converted)].map((e) => {
    const field = e.path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~') || 'query';
    const unknown = e.message.includes('additional') || e.message.includes('Unexpected property');
    const names =
      unknown && converted && typeof converted === 'object' ? Object.keys(converted).filter((k) => !(k in (schema.properties ?? {}))) : [];
    const description = unknown
      ? `Invalid JSON payload received. Unknown name ${JSON.stringify(names[0] ?? field)}: Cannot bind query parameter.`
      : `Invalid value at '${field}', ${JSON.stringify(e.value)}: ${e.message}.`;
    return { field: unknown ? (names[0] ?? field) : field, description };
  });
  return { value: converted, violations };
}

/**
 * The Vision routes' validator: the body with the proto3 JSON rules (proto-json-reader.ts), the
 * query string with TypeBox. A custom compiler is Fastify's documented way to validate a route
 * with something other than Ajv (https://fastify.dev/docs/latest/Reference/Validation-and-Serialization/).
 */
// biome-ignore lint/suspicious/noExplicitAny: Fastify types a compiler by each route's whole schema; this one serves several routes.
export const visionValidatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  if (httpPart === 'body') {
    return (data: unknown) => {
      const read = readProtoJson(schema, data ?? {});
      return read.ok ? { value: read.value } : { error: invalidArgument(read.violations) };
    };
  }
  return (data: unknown) => {
    const { value, violations } = querystringViolations(schema as TSchema, data);
    return violations.length === 0 ? { value } : { error: invalidArgument(violations) };
  };
};
