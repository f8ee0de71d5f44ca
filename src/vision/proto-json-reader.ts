import type { FieldViolation } from '../errors.ts';

/**
 * Reads a JSON value against a message schema (vision-request-schema.ts) with the proto3 JSON
 * mapping's parser rules (https://protobuf.dev/programming-guides/json/): field names in
 * lowerCamelCase or their original snake_case, `null` meaning "default", enums by name or number,
 * bytes in standard or URL-safe base64 (padded or not), 32-bit integers as numbers or strings.
 * Unknown fields are refused, as Google's front end does. The result has canonical camelCase
 * names, enum names and decoded bytes; each violation names the field Google's way
 * (`requests[0].image.content`) with Google's message patterns (GOOGLE-VISION.md §2.3).
 *
 * This is the only validation of the Vision request: the route installs it as its validator.
 */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; violations: FieldViolation[] };

/** The subset of JSON Schema that vision-request-schema.ts uses. */
interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
  'x-proto-type'?: string;
  'x-proto-enum'?: Record<string, number>;
}

const MAX_VIOLATIONS = 20;
const ABSENT = Symbol('absent');

export function readProtoJson<T>(schema: unknown, value: unknown): ReadResult<T> {
  const violations: FieldViolation[] = [];
  const read = readValue(schema as Schema, value, '', violations);
  if (violations.length > 0) return { ok: false, violations: violations.slice(0, MAX_VIOLATIONS) };
  return { ok: true, value: (read === ABSENT ? {} : read) as T };
}

const snakeOf = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const child = (path: string, name: string) => (path ? `${path}.${name}` : name);

/** A short, quoted excerpt of the offending value, like Google's messages. */
function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : preview(value, 49);
  return JSON.stringify(text.length > 48 ? `${text.slice(0, 48)}…` : text);
}

/**
 * The start of `value`'s JSON, at most about `budget` characters: it stops descending once the budget is
 * spent, so a value nested 5000 deep costs 49 steps, not a stack overflow in JSON.stringify.
 */
function preview(value: unknown, budget: number): string {
  if (budget <= 0) return '';
  if (value === null || typeof value !== 'object') return (JSON.stringify(value) ?? String(value)).slice(0, budget);
  const array = Array.isArray(value);
  let out = array ? '[' : '{';
  for (const [k, v] of Object.entries(value)) {
    if (out.length >= budget) break;
    if (out.length > 1) out += ',';
    if (!array) out += `${JSON.stringify(k)}:`;
    out += preview(v, budget - out.length);
  }
  return out.length >= budget ? out.slice(0, budget) : `${out}${array ? ']' : '}'}`;
}

function typeLabel(schema: Schema): string {
  if (schema['x-proto-type']) return `type.googleapis.com/${schema['x-proto-type']}`;
  if (schema.format === 'byte') return 'TYPE_BYTES';
  if (schema.type === 'integer') return 'TYPE_INT32';
  if (schema.type === 'number') return schema.format === 'double' ? 'TYPE_DOUBLE' : 'TYPE_FLOAT';
  if (schema.type === 'boolean') return 'TYPE_BOOL';
  if (schema.type === 'array') return `repeated ${schema.items ? typeLabel(schema.items) : 'value'}`;
  if (schema.patternProperties) return 'map';
  return 'TYPE_STRING';
}

function invalid(violations: FieldViolation[], path: string, schema: Schema, value: unknown, why?: string): typeof ABSENT {
  const field = path || 'request';
  const description = why
    ? `Invalid value at '${field}' (${typeLabel(schema)}), ${why}`
    : `Invalid value at '${field}' (${typeLabel(schema)}), ${excerpt(value)}`;
  violations.push({ field, description });
  return ABSENT;
}

function readValue(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (value === null || value === undefined) return ABSENT;
  if (violations.length >= MAX_VIOLATIONS) return ABSENT;
  if (schema.properties) return readMessage(schema, value, path, violations);
  if (schema.patternProperties) return readMap(schema, value, path, violations);
  if (schema.type === 'array') return readList(schema, value, path, violations);
  if (schema['x-proto-enum']) return readEnum(schema, value, path, violations);
  if (schema.format === 'byte') return readBytes(schema, value, path, violations);
  switch (schema.type) {
    case 'integer':
      return readInt(schema, value, path, violations);
    case 'number':
      return readFloat(schema, value, path, violations);
    case 'boolean':
      return typeof value === 'boolean' ? value : invalid(violations, path, schema, value);
    default:
      return readString(schema, value, path, violations);
  }
}

function readMessage(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (typeof value !== 'object' || Array.isArray(value)) return invalid(violations, path, schema, value);
  const properties = schema.properties ?? {};
  const bySnake = new Map(Object.keys(properties).map((name) => [snakeOf(name), name]));
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const name = key in properties ? key : bySnake.get(key);
    if (name === undefined) {
      const where = path ? ` at '${path}'` : '';
      violations.push({
        field: path || key,
        description: `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}${where}: Cannot find field.`,
      });
      continue;
    }
    if (seen.has(name)) {
      violations.push({
        field: child(path, name),
        description: `Invalid JSON payload received. Duplicate field ${JSON.stringify(name)}${path ? ` at '${path}'` : ''}.`,
      });
      continue;
    }
    seen.add(name);
    const read = readValue(properties[name], raw, child(path, name), violations);
    if (read !== ABSENT) out[name] = read;
  }
  for (const name of schema.required ?? []) {
    if (!(name in out) && !violations.some((v) => v.field.startsWith(child(path, name)))) {
      violations.push({ field: child(path, name), description: `Missing required field '${child(path, name)}'.` });
    }
  }
  return out;
}

function readMap(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (typeof value !== 'object' || Array.isArray(value)) return invalid(violations, path, schema, value);
  const [valueSchema] = Object.values(schema.patternProperties ?? {});
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const read = readValue(valueSchema, raw, `${child(path, key)}`, violations);
    if (read !== ABSENT) out[key] = read;
  }
  return out;
}

function readList(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (!Array.isArray(value)) return invalid(violations, path, schema, value, `expected a list, got ${excerpt(value)}`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    return invalid(violations, path, schema, value, `at most ${schema.maxItems} entries are allowed, got ${value.length}.`);
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    return invalid(violations, path, schema, value, `at least ${schema.minItems} entry is required.`);
  }
  const items = schema.items ?? {};
  return value.map((raw, i) => {
    const itemPath = `${path}[${i}]`;
    // proto3 JSON: a null inside a repeated field is not "default", it is an error.
    if (raw === null) return invalid(violations, itemPath, items, raw);
    const read = readValue(items, raw, itemPath, violations);
    return read === ABSENT ? undefined : read;
  });
}

function readEnum(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  const values = schema['x-proto-enum'] ?? {};
  if (typeof value === 'string' && Object.hasOwn(values, value)) return value;
  if (typeof value === 'number' && Number.isInteger(value)) {
    const name = Object.keys(values).find((k) => values[k] === value);
    if (name !== undefined) return name;
    return invalid(violations, path, schema, value, String(value));
  }
  return invalid(violations, path, schema, value);
}

// Standard and URL-safe alphabets may not be mixed inside one value by strict decoders, but
// Google's (absl WebSafeBase64Unescape / Base64Unescape) accept either; whitespace is skipped.
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

function readBytes(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (typeof value !== 'string') return invalid(violations, path, schema, value);
  const text = value.replace(/[\t\n\r ]/g, '');
  const padded = text.endsWith('=');
  const validLength = padded ? text.length % 4 === 0 : text.length % 4 !== 1;
  if (!BASE64.test(text) || !validLength) {
    return invalid(violations, path, schema, value, `Base64 decoding failed for ${excerpt(value)}`);
  }
  if (text === '') return ABSENT;
  // Node's base64 decoder reads the URL-safe alphabet too (https://nodejs.org/api/buffer.html#buffers-and-character-encodings).
  const bytes = Buffer.from(text, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function readInt(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) return invalid(violations, path, schema, value);
  if ((schema.minimum !== undefined && n < schema.minimum) || (schema.maximum !== undefined && n > schema.maximum)) {
    return invalid(violations, path, schema, value, `${excerpt(value)} is out of range.`);
  }
  return n;
}

function readFloat(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    if (value === 'NaN') return Number.NaN;
    if (value === 'Infinity') return Number.POSITIVE_INFINITY;
    if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
    if (value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  }
  return invalid(violations, path, schema, value);
}

function readString(schema: Schema, value: unknown, path: string, violations: FieldViolation[]): unknown {
  if (typeof value !== 'string') return invalid(violations, path, schema, value);
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    return invalid(violations, path, schema, value, `longer than ${schema.maxLength} characters.`);
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
    return invalid(violations, path, schema, value);
  }
  return value === '' ? ABSENT : value;
}
