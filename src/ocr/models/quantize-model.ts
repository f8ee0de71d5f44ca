import {
  constantValue,
  domainField,
  floatAttributeValue,
  intAttribute,
  intsAttribute,
  intsAttributeBytes,
  typedConstantNode,
  type GraphNode,
  type OnnxGraph,
} from './onnx-graph.ts';

/** An activation's observed range on the calibration images: `[min, max]` per tensor name. */
export type ActivationRanges = Record<string, readonly [number, number]>;

/**
 * The QDQ form onnxruntime turns into int8 kernels: `DequantizeLinear` before a Conv's input and
 * weight (and bias), `QuantizeLinear` after its output. onnxruntime's graph optimizer fuses each such
 * group into one `QLinearConv` (u8 activations × per-channel s8 weights; VNNI on this CPU); the other
 * ops keep running in float between a `DequantizeLinear` and the next `QuantizeLinear`. The ops are
 * taken from the `com.microsoft` domain: the PP-OCR models are opset 9–11, where the standard ones
 * lack per-channel scales (opset 13) or do not exist yet (opset 10).
 */
const MS = 'com.microsoft';

/** The tensors quantization needs ranges for: each float Conv's input and output (after a sole Relu). */
export function calibrationTensors(graph: OnnxGraph): string[] {
  return [...new Set(quantizableConvs(graph).flatMap(({ conv, output }) => [conv.inputs[0], output]))];
}

/** Tensor → the nodes reading it. */
function consumersOf(nodes: readonly GraphNode[]): Map<string, GraphNode[]> {
  const consumers = new Map<string, GraphNode[]>();
  for (const n of nodes) for (const i of n.inputs) consumers.set(i, [...(consumers.get(i) ?? []), n]);
  return consumers;
}

function quantizableConvs(graph: OnnxGraph): Array<{ conv: GraphNode; output: string }> {
  const producer = new Map(graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const consumers = consumersOf(graph.nodes);
  const out: Array<{ conv: GraphNode; output: string }> = [];
  for (const conv of graph.nodes) {
    if (conv.op !== 'Conv' || conv.inputs.length < 2) continue;
    const w = constantValue(producer.get(conv.inputs[1]));
    if (w?.dims.length !== 4 || consumers.get(conv.inputs[1])?.length !== 1) continue;
    if (conv.inputs[2] !== undefined && (!constantValue(producer.get(conv.inputs[2])) || consumers.get(conv.inputs[2])?.length !== 1))
      continue;
    const next = consumers.get(conv.outputs[0]);
    // A Relu right after the conv is folded into the output's zero point by onnxruntime.
    const relu = next?.length === 1 && next[0].op === 'Relu' && !graph.outputs.has(conv.outputs[0]) ? next[0] : undefined;
    out.push({ conv, output: relu ? relu.outputs[0] : conv.outputs[0] });
  }
  return out;
}

/** Asymmetric uint8 parameters covering `[min, max]` (and 0, which must be exact). */
export function uint8Params(min: number, max: number): { scale: number; zeroPoint: number } {
  const lo = Math.min(0, min),
    hi = Math.max(0, max);
  const scale = hi > lo ? (hi - lo) / 255 : 1;
  return { scale, zeroPoint: Math.min(255, Math.max(0, Math.round(-lo / scale))) };
}

/**
 * Rewrites every Conv with a constant weight whose input and output have a range in `ranges` into
 * the QDQ form (per-output-channel symmetric int8 weights, int32 bias, uint8 activations), and the
 * hard-swishes between them (`quantizeHardSwish`). Returns how many convs were quantized. `skip`
 * names convs (by output tensor) to leave in float.
 */
export function quantizeConvNodes(graph: OnnxGraph, ranges: ActivationRanges, skip: ReadonlySet<string> = new Set()): number {
  const producer = new Map(graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const added: GraphNode[] = [];
  /** Tensor → the name of its dequantized copy (an activation quantized once serves every conv reading it). */
  const dequantized = new Map<string, string>();
  /** Tensor → its quantization scale (the bias scale depends on the input's). */
  const scales = new Map<string, number>();
  let n = 0;
  const fresh = (base: string, what: string) => `${base}__${what}${n}`;

  const qdq = (tensor: string, target: string, range: readonly [number, number]) => {
    const { scale, zeroPoint } = uint8Params(range[0], range[1]);
    const s = typedConstantNode(`${tensor}__scale`, [], new Float32Array([scale]));
    const z = typedConstantNode(`${tensor}__zero`, [], new Uint8Array([zeroPoint]));
    const q = `${tensor}__q`;
    added.push(
      s,
      z,
      { inputs: [tensor, s.outputs[0], z.outputs[0]], outputs: [q], op: 'QuantizeLinear', rest: [domainField(MS)] },
      { inputs: [q, s.outputs[0], z.outputs[0]], outputs: [target], op: 'DequantizeLinear', rest: [domainField(MS)] },
    );
    scales.set(target, scale);
    return scale;
  };

  /** A quantized conv's output → its channel count. */
  const channels = new Map<string, number>();
  const todo = quantizableConvs(graph).filter(({ conv, output }) => !skip.has(output) && ranges[conv.inputs[0]] && ranges[output]);
  const rewritten = new Set<string>();
  for (const { conv, output } of todo) {
    n++;
    // Input: quantized once, read by every conv that wants it.
    const x = conv.inputs[0];
    let xq = dequantized.get(x);
    if (!xq) {
      if (rewritten.has(x))
        xq = x; // already the DequantizeLinear output of an earlier conv
      else {
        xq = `${x}__dq`;
        qdq(x, xq, ranges[x]);
      }
      dequantized.set(x, xq);
    }
    const xScale = scales.get(xq)!;
    // Weight: one symmetric int8 scale per output channel.
    const w = constantValue(producer.get(conv.inputs[1]))!;
    const cout = w.dims[0],
      per = w.data.length / cout;
    const wScale = new Float32Array(cout);
    const wq = new Int8Array(w.data.length);
    for (let o = 0; o < cout; o++) {
      let m = 0;
      for (let k = 0; k < per; k++) m = Math.max(m, Math.abs(w.data[o * per + k]));
      wScale[o] = m > 0 ? m / 127 : 1;
      for (let k = 0; k < per; k++) wq[o * per + k] = Math.round(w.data[o * per + k] / wScale[o]);
    }
    const wNode = typedConstantNode(fresh(conv.inputs[1], 'int8'), w.dims, wq);
    const wS = typedConstantNode(fresh(conv.inputs[1], 'scale'), [cout], wScale);
    const wZ = typedConstantNode(fresh(conv.inputs[1], 'zero'), [cout], new Int8Array(cout));
    const wDq = fresh(conv.inputs[1], 'dq');
    added.push(wNode, wS, wZ, {
      inputs: [wNode.outputs[0], wS.outputs[0], wZ.outputs[0]],
      outputs: [wDq],
      op: 'DequantizeLinear',
      rest: [domainField(MS), intsAttributeBytes('axis', 0)],
    });
    const inputs = [xq, wDq];
    // Bias: int32 at scale (input scale × weight scale), as QLinearConv takes it.
    if (conv.inputs[2] !== undefined) {
      const b = constantValue(producer.get(conv.inputs[2]))!;
      const bScale = wScale.map((s) => s * xScale);
      const bq = Int32Array.from(b.data, (v, o) => Math.round(v / bScale[o]));
      const bNode = typedConstantNode(fresh(conv.inputs[2], 'int32'), [cout], bq);
      const bS = typedConstantNode(fresh(conv.inputs[2], 'scale'), [cout], bScale);
      const bZ = typedConstantNode(fresh(conv.inputs[2], 'zero'), [cout], new Int32Array(cout));
      const bDq = fresh(conv.inputs[2], 'dq');
      added.push(bNode, bS, bZ, {
        inputs: [bNode.outputs[0], bS.outputs[0], bZ.outputs[0]],
        outputs: [bDq],
        op: 'DequantizeLinear',
        rest: [domainField(MS), intsAttributeBytes('axis', 0)],
      });
      inputs.push(bDq);
    }
    conv.inputs = inputs;
    // Output: the producer (conv or its Relu) writes `…__float`, a Q/DQ pair gives the original name back.
    const last = producer.get(output)!;
    const raw = `${output}__float`;
    last.outputs = [raw];
    qdq(raw, output, ranges[output]);
    rewritten.add(output);
    dequantized.set(output, output);
    channels.set(output, cout);
  }
  quantizeHardSwish(graph, added, rewritten, channels, scales, qdq);
  if (todo.length > 0) {
    // Constants first (topological order): the Q/DQ nodes are placed right after their input's producer by sorting.
    graph.nodes = topologicalOrder([...added, ...graph.nodes]);
    graph.importOpset(MS, 1);
  }
  return todo.length;
}

/**
 * A hard-swish `x · HardSigmoid(x)` whose `x` is an int8 conv's output and whose result only feeds
 * QuantizeLinear nodes (the next convs' inputs) is moved into the int8 path too. Left in float,
 * each one costs a DequantizeLinear, a HardSigmoid, a Mul and a QuantizeLinear over the whole
 * activation: as much time as the int8 convs themselves. Here the HardSigmoid becomes a depthwise
 * 1×1 conv (weight α, bias β) whose uint8 output at scale 1/255 saturates at 0 and 1, which is the
 * HardSigmoid's clip, and the Mul sits between Q/DQ pairs: onnxruntime runs them as `QLinearConv`
 * and `QLinearMul`.
 */
function quantizeHardSwish(
  graph: OnnxGraph,
  added: GraphNode[],
  rewritten: ReadonlySet<string>,
  channels: ReadonlyMap<string, number>,
  scales: ReadonlyMap<string, number>,
  qdq: (tensor: string, target: string, range: readonly [number, number]) => number,
): void {
  const consumers = consumersOf([...graph.nodes, ...added]);
  for (const hs of graph.nodes) {
    if (hs.op !== 'HardSigmoid') continue;
    const x = hs.inputs[0];
    const h = hs.outputs[0];
    const cout = channels.get(x);
    const xScale = scales.get(x);
    const [mul, ...others] = consumers.get(h) ?? [];
    if (!rewritten.has(x) || cout === undefined || xScale === undefined || others.length > 0 || mul?.op !== 'Mul') continue;
    if (!mul.inputs.includes(x) || graph.outputs.has(h) || graph.outputs.has(mul.outputs[0])) continue;
    const readers = consumers.get(mul.outputs[0]) ?? [];
    if (readers.length === 0 || readers.some((r) => r.op !== 'QuantizeLinear')) continue;
    const alpha = floatAttributeValue(hs, 'alpha') ?? 0.2;
    const beta = floatAttributeValue(hs, 'beta') ?? 0.5;
    if (!(alpha > 0)) continue;
    const name = `${h}__hs`;
    const wScale = alpha / 127;
    const w = typedConstantNode(`${name}_w`, [cout, 1, 1, 1], new Int8Array(cout).fill(127));
    const wS = typedConstantNode(`${name}_ws`, [cout], new Float32Array(cout).fill(wScale));
    const wZ = typedConstantNode(`${name}_wz`, [cout], new Int8Array(cout));
    const b = typedConstantNode(`${name}_b`, [cout], new Int32Array(cout).fill(Math.round(beta / (xScale * wScale))));
    const bS = typedConstantNode(`${name}_bs`, [cout], new Float32Array(cout).fill(xScale * wScale));
    const bZ = typedConstantNode(`${name}_bz`, [cout], new Int32Array(cout));
    const dq = (value: GraphNode, scale: GraphNode, zero: GraphNode, out: string): GraphNode => ({
      inputs: [value.outputs[0], scale.outputs[0], zero.outputs[0]],
      outputs: [out],
      op: 'DequantizeLinear',
      rest: [domainField(MS), intsAttributeBytes('axis', 0)],
    });
    added.push(w, wS, wZ, b, bS, bZ, dq(w, wS, wZ, `${name}_wdq`), dq(b, bS, bZ, `${name}_bdq`));
    hs.op = 'Conv';
    hs.inputs = [x, `${name}_wdq`, `${name}_bdq`];
    hs.outputs = [`${h}__float`];
    hs.rest = [intsAttributeBytes('group', cout), intsAttributeBytes('kernel_shape', [1, 1])];
    qdq(`${h}__float`, h, [0, 1]);
  }
}

/** Nodes in an order where every input is produced before it is read (graph inputs have no producer). */
function topologicalOrder(nodes: GraphNode[]): GraphNode[] {
  const producer = new Map(nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const done = new Set<GraphNode>();
  const out: GraphNode[] = [];
  const visit = (root: GraphNode) => {
    const stack: Array<{ node: GraphNode; next: number }> = [{ node: root, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (done.has(top.node)) {
        stack.pop();
        continue;
      }
      if (top.next < top.node.inputs.length) {
        const p = producer.get(top.node.inputs[top.next++]);
        if (p && !done.has(p)) stack.push({ node: p, next: 0 });
        continue;
      }
      done.add(top.node);
      out.push(top.node);
      stack.pop();
    }
  };
  nodes.forEach(visit);
  return out;
}

/** Ops whose opset-9 form means the same at opset 10 (the recognizer's and classifier's, Slice and TopK aside). */
const SAME_AT_10 = new Set([
  'Constant',
  'Conv',
  'Mul',
  'Add',
  'Sub',
  'Div',
  'Pow',
  'Sqrt',
  'HardSigmoid',
  'Sigmoid',
  'Relu',
  'Cast',
  'MatMul',
  'Transpose',
  'Concat',
  'Squeeze',
  'Unsqueeze',
  'BatchNormalization',
  'Reshape',
  'ReduceMean',
  'Softmax',
  'Shape',
  'GlobalAveragePool',
  'AveragePool',
  'MaxPool',
  'Flatten',
  'Gemm',
]);

/**
 * QLinearConv exists from opset 10: an opset-9 graph (the recognizer, the classifier) is moved to
 * 10, where `Slice` and `TopK` take their bounds and `k` as inputs instead of attributes. Returns
 * false, changing nothing, when the graph has an op whose meaning at 10 is not known to be the same.
 */
export function upgradeToOpset10(graph: OnnxGraph): boolean {
  if (graph.nodes.some((n) => !SAME_AT_10.has(n.op) && n.op !== 'Slice' && n.op !== 'TopK')) return false;
  const added: GraphNode[] = [];
  let k = 0;
  const ints = (values: number[]) => {
    const c = typedConstantNode(`opset10__${k++}`, [values.length], BigInt64Array.from(values, BigInt));
    added.push(c);
    return c.outputs[0];
  };
  for (const n of graph.nodes) {
    if (n.op === 'Slice') {
      const starts = intsAttribute(n, 'starts'),
        ends = intsAttribute(n, 'ends'),
        axes = intsAttribute(n, 'axes');
      if (!starts || !ends) return false;
      n.inputs = [n.inputs[0], ints(starts), ints(ends), ...(axes ? [ints(axes)] : [])];
      n.rest = [];
    } else if (n.op === 'TopK') {
      const kk = intAttribute(n, 'k');
      const axis = intAttribute(n, 'axis') ?? -1;
      if (kk === undefined) return false;
      n.inputs = [n.inputs[0], ints([kk])];
      n.rest = [intsAttributeBytes('axis', axis)];
    }
  }
  graph.nodes = [...added, ...graph.nodes];
  graph.importOpset('', 10);
  return true;
}
