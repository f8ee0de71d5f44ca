import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

/**
 * Google's own descriptors of the Vision v1 messages, as shipped inside `@google-cloud/vision`
 * (`build/protos/protos.json`: self-contained, with google.rpc.Status; the copies in
 * ../shared/protos import files that are not copied there).
 */
const require = createRequire(import.meta.url);
const root = protobuf.Root.fromJSON(require('@google-cloud/vision/build/protos/protos.json'));

/** Floats travel as float32 on the wire: compare them at that precision. */
function normalise(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isInteger(value)) return Math.fround(value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

/**
 * Decodes a JSON response as the message `typeName`, encodes it to protobuf binary and back, and
 * returns the JSON protobufjs prints (defaults omitted, enums as names or numbers like the input).
 * Equal to the input ⇔ every field is known to the proto and nothing is lost on the way.
 */
export function protoRoundTrip(typeName: string, json: unknown, enums: 'name' | 'int' = 'name'): { input: unknown; output: unknown } {
  const type = root.lookupType(typeName);
  const message = type.fromObject(json as Record<string, unknown>);
  const decoded = type.decode(type.encode(message).finish());
  const output = type.toObject(decoded, { enums: enums === 'name' ? String : undefined, defaults: false, arrays: false });
  return { input: normalise(json), output: normalise(output) };
}
