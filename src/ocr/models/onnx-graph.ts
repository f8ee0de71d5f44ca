/**
 * Just enough of the ONNX protobuf format to rewrite a model's nodes at load time (`fuse-*.ts`).
 * The model is read at the wire level (https://protobuf.dev/programming-guides/encoding/): only
 * `GraphProto.node` entries are decoded and re-encoded; every other byte is copied as it is. Field
 * numbers are from onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto).
 */

export interface Field {
  no: number;
  wire: number;
  /** Whole field, key included. */
  start: number;
  end: number;
  /** Payload of a length-delimited field. */
  dataStart: number;
  /** Value of a varint field. */
  value: number;
}

function readVarint(buf: Uint8Array, at: number): { value: number; next: number } {
  let value = 0,
    scale = 1,
    i = at;
  for (;;) {
    const b = buf[i++];
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) return i - at < 9 ? { value, next: i } : { value: bigVarint(buf, at), next: i };
    scale *= 128;
  }
}

/** A 9–10 byte varint read exactly: a negative int64 (two's complement) or one beyond 2^53, clamped to ±2^53. */
function bigVarint(buf: Uint8Array, at: number): number {
  let v = 0n,
    shift = 0n;
  for (let i = at; ; i++, shift += 7n) {
    v |= BigInt(buf[i] & 0x7f) << shift;
    if ((buf[i] & 0x80) === 0) break;
  }
  const n = BigInt.asIntN(64, v);
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(n > max ? max : n < -max ? -max : n);
}

export function* fields(buf: Uint8Array, start = 0, end = buf.length): Generator<Field> {
  let i = start;
  while (i < end) {
    const fieldStart = i;
    const key = readVarint(buf, i);
    i = key.next;
    const no = Math.floor(key.value / 8),
      wire = key.value & 7;
    let dataStart = i,
      value = 0;
    if (wire === 0) ({ value, next: i } = readVarint(buf, i));
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const length = readVarint(buf, i);
      dataStart = length.next;
      i = dataStart + length.value;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    if (i > end) throw new Error('truncated protobuf field');
    yield { no, wire, start: fieldStart, end: i, dataStart, value };
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function varintBytes(n: number): number[] {
  const out: number[] = [];
  if (n < 0) {
    // int64 two's complement: ten bytes.
    let v = BigInt.asUintN(64, BigInt(n));
    for (let i = 0; i < 10; i++, v >>= 7n) out.push(Number(v & 0x7fn) | (i < 9 ? 0x80 : 0));
    return out;
  }
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function lengthDelimited(no: number, payload: Uint8Array): Uint8Array {
  return concat([new Uint8Array([...varintBytes(no * 8 + 2), ...varintBytes(payload.length)]), payload]);
}

const text = (no: number, s: string) => lengthDelimited(no, encoder.encode(s));

/** NodeProto: input = 1, output = 2, op_type = 4, attribute = 5; everything else is kept as raw fields. */
export interface GraphNode {
  inputs: string[];
  outputs: string[];
  op: string;
  /** Encoded `AttributeProto`s (field 5) and other fields, in order. */
  rest: Uint8Array[];
}

export interface OnnxGraph {
  nodes: GraphNode[];
  /** Names of the graph's outputs (they must keep their producers). */
  outputs: Set<string>;
  /** Declares output `name` as a float tensor of any shape (for a rewrite that changes its shape). */
  redeclareFloatOutput(name: string): void;
  /** Makes the intermediate tensor `name` an output too, as a float tensor of any shape (calibration). */
  addFloatOutput(name: string): void;
  /** Adds an operator set the rewritten nodes use (`com.microsoft` for its quantization ops), or changes its version. */
  importOpset(domain: string, version: number): void;
  /** The model with `nodes` in place of the original ones (Constant nodes nobody uses are dropped). */
  encode(): Uint8Array;
}

/** Reads a model's graph; `undefined` when the bytes hold no `ModelProto.graph`. */
export function readGraph(model: Uint8Array): OnnxGraph | undefined {
  let top: Field[];
  try {
    top = [...fields(model)];
  } catch {
    return undefined;
  }
  const graphField = top.find((f) => f.no === 7 && f.wire === 2);
  if (!graphField) return undefined;
  const nodes: GraphNode[] = [];
  const others: Uint8Array[] = [];
  const outputs = new Set<string>();
  /** Index in `others` of each graph output's `ValueInfoProto`. */
  const outputInfo = new Map<string, number>();
  for (const g of fields(model, graphField.dataStart, graphField.end)) {
    if (g.no === 12 && g.wire === 2) {
      // ValueInfoProto.name = 1
      for (const v of fields(model, g.dataStart, g.end)) {
        if (v.no !== 1) continue;
        const name = decoder.decode(model.subarray(v.dataStart, v.end));
        outputs.add(name);
        outputInfo.set(name, others.length);
      }
    }
    if (g.no !== 1) {
      others.push(model.subarray(g.start, g.end));
      continue;
    }
    const node: GraphNode = { inputs: [], outputs: [], op: '', rest: [] };
    for (const h of fields(model, g.dataStart, g.end)) {
      const s = () => decoder.decode(model.subarray(h.dataStart, h.end));
      if (h.no === 1) node.inputs.push(s());
      else if (h.no === 2) node.outputs.push(s());
      else if (h.no === 4) node.op = s();
      else node.rest.push(model.subarray(h.start, h.end));
    }
    nodes.push(node);
  }
  // ValueInfoProto { name = 1, type = 2: TypeProto { tensor_type = 1: { elem_type = 1 (FLOAT) } } }
  const floatOutput = (name: string) =>
    lengthDelimited(12, concat([text(1, name), lengthDelimited(2, lengthDelimited(1, new Uint8Array([...varintBytes(1 * 8), 1])))]));
  const opsets: Uint8Array[] = [];
  const graph: OnnxGraph = {
    nodes,
    outputs,
    redeclareFloatOutput(name) {
      const at = outputInfo.get(name);
      if (at === undefined) throw new Error(`${name} is not an output of the graph`);
      others[at] = floatOutput(name);
    },
    addFloatOutput(name) {
      if (outputs.has(name)) return;
      outputs.add(name);
      outputInfo.set(name, others.length);
      others.push(floatOutput(name));
    },
    importOpset(domain, version) {
      // ModelProto.opset_import = 8: OperatorSetIdProto { domain = 1, version = 2 }
      top = top.filter((f) => f.no !== 8 || opsetDomain(model, f) !== domain);
      opsets.push(lengthDelimited(8, concat([text(1, domain), new Uint8Array([...varintBytes(2 * 8), ...varintBytes(version)])])));
    },
    encode() {
      const used = new Set(graph.nodes.flatMap((n) => n.inputs));
      const kept = graph.nodes.filter((n) => n.op !== 'Constant' || n.outputs.some((o) => used.has(o) || outputs.has(o)));
      const encoded = concat([...kept.map(encodeNode), ...others]);
      return concat([
        ...top.map((f) => (f.start === graphField.start ? lengthDelimited(7, encoded) : model.subarray(f.start, f.end))),
        ...opsets,
      ]);
    },
  };
  return graph;
}

function opsetDomain(model: Uint8Array, f: Field): string {
  const d = [...fields(model, f.dataStart, f.end)].find((x) => x.no === 1 && x.wire === 2);
  return d ? decoder.decode(model.subarray(d.dataStart, d.end)) : '';
}

/** The version of the default (`ai.onnx`) operator set a model imports; 0 when none is found. */
export function opsetVersion(model: Uint8Array): number {
  for (const f of fields(model)) {
    if (f.no !== 8 || f.wire !== 2 || opsetDomain(model, f) !== '') continue;
    return [...fields(model, f.dataStart, f.end)].find((x) => x.no === 2 && x.wire === 0)?.value ?? 0;
  }
  return 0;
}

function encodeNode(n: GraphNode): Uint8Array {
  return lengthDelimited(1, concat([...n.inputs.map((s) => text(1, s)), ...n.outputs.map((s) => text(2, s)), text(4, n.op), ...n.rest]));
}

/** An attribute of a node, as the raw `AttributeProto` fields. */
function attribute(node: GraphNode, name: string): { buf: Uint8Array; fields: Field[] } | undefined {
  for (const raw of node.rest) {
    const [outer] = fields(raw);
    if (outer.no !== 5) continue;
    const inner = [...fields(raw, outer.dataStart, outer.end)];
    const n = inner.find((f) => f.no === 1);
    if (n && decoder.decode(raw.subarray(n.dataStart, n.end)) === name) return { buf: raw, fields: inner };
  }
  return undefined;
}

/** An INTS attribute (`ints` = 8, packed or not); `undefined` when absent. */
export function intsAttribute(node: GraphNode, name: string): number[] | undefined {
  const a = attribute(node, name);
  if (!a) return undefined;
  const out: number[] = [];
  for (const f of a.fields) {
    if (f.no !== 8) continue;
    if (f.wire === 0) out.push(f.value);
    else for (let i = f.dataStart; i < f.end; ) ({ value: out[out.length], next: i } = readVarint(a.buf, i));
  }
  return out;
}

/** An INT attribute (`i` = 3); `undefined` when absent. */
export function intAttribute(node: GraphNode, name: string): number | undefined {
  return attribute(node, name)?.fields.find((f) => f.no === 3 && f.wire === 0)?.value;
}

/** AttributeProto { name = 1, ints = 8, type = 20 (INTS = 7) } or { i = 3, type = INT = 2 }. */
export function intsAttributeBytes(name: string, value: number | number[]): Uint8Array {
  const body = Array.isArray(value)
    ? [...value.flatMap((v) => [...varintBytes(8 * 8), ...varintBytes(v)]), ...varintBytes(20 * 8), 7]
    : [...varintBytes(3 * 8), ...varintBytes(value), ...varintBytes(20 * 8), 2];
  return lengthDelimited(5, concat([text(1, name), new Uint8Array(body)]));
}

/** NodeProto.domain = 7: the operator set a node's op belongs to. */
export function domainField(domain: string): Uint8Array {
  return text(7, domain);
}

export function hasAttribute(node: GraphNode, name: string): boolean {
  return attribute(node, name) !== undefined;
}

/** A FLOAT attribute (`f` = 2, fixed 32-bit); `undefined` when absent. */
export function floatAttributeValue(node: GraphNode, name: string): number | undefined {
  const a = attribute(node, name);
  const f = a?.fields.find((x) => x.no === 2 && x.wire === 5);
  return a && f ? new DataView(a.buf.buffer, a.buf.byteOffset + f.dataStart, 4).getFloat32(0, true) : undefined;
}

/** AttributeProto { name = 1, f = 2, type = 20 (FLOAT = 1) }. */
export function floatAttribute(name: string, value: number): Uint8Array {
  const f = new Uint8Array(5);
  f[0] = 2 * 8 + 5;
  new DataView(f.buffer).setFloat32(1, value, true);
  return lengthDelimited(5, concat([text(1, name), f, new Uint8Array([...varintBytes(20 * 8), 1])]));
}

export interface FloatTensor {
  dims: number[];
  data: Float32Array;
}

/** The float value of a `Constant` node (`value` attribute, TensorProto FLOAT in `raw_data` or `float_data`). */
export function constantValue(node: GraphNode | undefined): FloatTensor | undefined {
  if (node?.op !== 'Constant') return undefined;
  const a = attribute(node, 'value');
  const t = a?.fields.find((f) => f.no === 5 && f.wire === 2);
  if (!a || !t) return undefined;
  const dims: number[] = [];
  let type = 0;
  let bytes: Uint8Array | undefined;
  for (const f of fields(a.buf, t.dataStart, t.end)) {
    if (f.no === 1 && f.wire === 0) dims.push(f.value);
    else if (f.no === 1 && f.wire === 2)
      for (let i = f.dataStart; i < f.end; ) ({ value: dims[dims.length], next: i } = readVarint(a.buf, i));
    else if (f.no === 2) type = f.value;
    else if ((f.no === 9 || f.no === 4) && f.wire === 2) bytes = a.buf.subarray(f.dataStart, f.end);
    else if (f.no === 13 || f.no === 14) return undefined; // external data
  }
  const count = dims.reduce((n, d) => n * d, 1);
  if (type !== 1 || !bytes || bytes.length !== count * 4) return undefined;
  const data = new Float32Array(count);
  new Uint8Array(data.buffer).set(bytes);
  return { dims, data };
}

/** A `Constant` node holding a float tensor (raw_data, little-endian as the format requires). */
export function constantNode(output: string, value: FloatTensor): GraphNode {
  return typedConstantNode(output, value.dims, value.data);
}

/** TensorProto data types of the typed arrays a rewrite writes. */
const DATA_TYPE = new Map<unknown, number>([
  [Float32Array, 1],
  [Uint8Array, 2],
  [Int8Array, 3],
  [Int32Array, 6],
  [BigInt64Array, 7],
]);

/** A `Constant` node holding a float, uint8, int8 or int32 tensor (raw_data, little-endian). */
export function typedConstantNode(
  output: string,
  dims: readonly number[],
  data: Float32Array | Uint8Array | Int8Array | Int32Array | BigInt64Array,
): GraphNode {
  const tensor = concat([
    ...dims.map((d) => new Uint8Array([...varintBytes(1 * 8), ...varintBytes(d)])),
    new Uint8Array([...varintBytes(2 * 8), DATA_TYPE.get(data.constructor)!]),
    lengthDelimited(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)),
  ]);
  const attr = lengthDelimited(5, concat([text(1, 'value'), lengthDelimited(5, tensor), new Uint8Array([...varintBytes(20 * 8), 4])]));
  return { inputs: [], outputs: [output], op: 'Constant', rest: [attr] };
}
