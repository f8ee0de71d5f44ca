import {
  constantNode,
  constantValue,
  hasAttribute,
  intAttribute,
  intsAttribute,
  intsAttributeBytes,
  readGraph,
  type GraphNode,
  type OnnxGraph,
} from './onnx-graph.ts';

/**
 * A load-time rewrite of PP-LCNetV3 (the backbone of the PP-OCRv4 detector and recognizer): each of
 * its "learnable affine blocks" is exported as a scalar `Mul` then `Add`, two full passes over the
 * activation, once after each conv and once after each hard-swish, and onnxruntime fuses none of them
 * (its Conv+Mul fusion wants the constant as the second input). They are folded into the convs:
 *
 * - after a conv: `a·conv(x; W, B) + b = conv(x; a·W, a·B + b)`, exact;
 * - before an unpadded conv (1×1): `conv(c·h + d; W, B) = conv(h; c·W, B + d·ΣW)`, exact;
 * - before a padded conv: the zero padding would see `d` where it saw 0, so only `c` goes into the
 *   weights and `+ d/c` stays, as a 1×1 depthwise conv: `conv(c·h + d; W, B) = conv(h + d/c; c·W, B)`.
 *
 * Only scalar constants used once are folded; anything else is left as it is.
 */
export function fuseConvAffineNodes(graph: OnnxGraph): number {
  const producer = new Map<string, GraphNode>();
  const consumers = new Map<string, GraphNode[]>();
  const index = () => {
    producer.clear();
    consumers.clear();
    for (const n of graph.nodes) {
      n.outputs.forEach((o) => producer.set(o, n));
      n.inputs.forEach((i) => consumers.set(i, [...(consumers.get(i) ?? []), n]));
    }
  };
  index();
  let fresh = 0;
  const name = (base: string) => `${base}__fused${fresh++}`;

  /** A scalar constant used only by `node`, and the other input. */
  const scalarOperand = (node: GraphNode): { value: number; other: string } | undefined => {
    if ((node.op !== 'Mul' && node.op !== 'Add') || node.inputs.length !== 2) return undefined;
    for (const k of [0, 1]) {
      const c = constantValue(producer.get(node.inputs[k]));
      if (c && c.data.length === 1 && consumers.get(node.inputs[k])?.length === 1) return { value: c.data[0], other: node.inputs[1 - k] };
    }
    return undefined;
  };
  /** Conv weight and bias, as copies we may change. */
  const convParams = (conv: GraphNode) => {
    const w = constantValue(producer.get(conv.inputs[1]));
    if (w?.dims.length !== 4 || consumers.get(conv.inputs[1])?.length !== 1) return undefined;
    const b =
      conv.inputs[2] === undefined ? { dims: [w.dims[0]], data: new Float32Array(w.dims[0]) } : constantValue(producer.get(conv.inputs[2]));
    if (!b || b.data.length !== w.dims[0] || (conv.inputs[2] !== undefined && consumers.get(conv.inputs[2])?.length !== 1))
      return undefined;
    return { w, b };
  };
  const setParams = (conv: GraphNode, p: NonNullable<ReturnType<typeof convParams>>) => {
    const wNode = constantNode(name(conv.inputs[1]), p.w);
    const bNode = constantNode(name(conv.inputs[2] ?? `${conv.outputs[0]}_bias`), p.b);
    // Constants go first: ONNX wants nodes in topological order.
    graph.nodes.unshift(wNode, bNode);
    conv.inputs = [conv.inputs[0], wNode.outputs[0], bNode.outputs[0]];
    index();
  };
  const soleConsumer = (tensor: string) => {
    const c = consumers.get(tensor);
    return c?.length === 1 && !graph.outputs.has(tensor) ? c[0] : undefined;
  };

  let folded = 0;
  for (const conv of graph.nodes.filter((n) => n.op === 'Conv')) {
    // Affine ops after the conv.
    for (;;) {
      const next = soleConsumer(conv.outputs[0]);
      const operand = next ? scalarOperand(next) : undefined;
      const p = operand && convParams(conv);
      if (!next || !operand || !p) break;
      if (next.op === 'Mul') {
        p.w.data.forEach((v, i) => (p.w.data[i] = v * operand.value));
        p.b.data.forEach((v, i) => (p.b.data[i] = v * operand.value));
      } else p.b.data.forEach((v, i) => (p.b.data[i] = v + operand.value));
      conv.outputs = next.outputs;
      graph.nodes = graph.nodes.filter((n) => n !== next);
      setParams(conv, p);
      folded++;
    }
    // Affine ops before the conv: `Add(Mul(h, c), d)`.
    const pads = intsAttribute(conv, 'pads') ?? [];
    const unpadded = pads.every((v) => v === 0) && !hasAttribute(conv, 'auto_pad');
    for (;;) {
      const prev = producer.get(conv.inputs[0]);
      const operand = prev && soleConsumer(conv.inputs[0]) === conv ? scalarOperand(prev) : undefined;
      const p = operand && convParams(conv);
      if (!prev || !operand || !p) break;
      if (prev.op === 'Mul') {
        p.w.data.forEach((v, i) => (p.w.data[i] = v * operand.value));
      } else if (unpadded) {
        const [cout] = p.w.dims;
        const per = p.w.data.length / cout;
        for (let o = 0; o < cout; o++) {
          let sum = 0;
          for (let k = 0; k < per; k++) sum += p.w.data[o * per + k];
          p.b.data[o] += operand.value * sum;
        }
      } else {
        // Padded conv: `conv(Add(Mul(h, c), d))` becomes `conv'(Add(h, d/c))`, and the loop ends.
        const mul = producer.get(operand.other);
        const c = mul && soleConsumer(operand.other) === prev ? scalarOperand(mul) : undefined;
        if (!mul || !c || c.value === 0) break;
        p.w.data.forEach((v, i) => (p.w.data[i] = v * c.value));
        // The remaining `+ d/c` as a 1×1 depthwise conv rather than an `Add`: onnxruntime runs convs
        // in its blocked NCHWc layout, and an `Add` between two of them costs two layout reorders.
        const channels = p.w.dims[1] * (intAttribute(conv, 'group') ?? 1);
        const ones = constantNode(name('ones'), { dims: [channels, 1, 1, 1], data: new Float32Array(channels).fill(1) });
        const shift = constantNode(name('shift'), { dims: [channels], data: new Float32Array(channels).fill(operand.value / c.value) });
        graph.nodes.unshift(ones, shift);
        prev.op = 'Conv';
        prev.inputs = [c.other, ones.outputs[0], shift.outputs[0]];
        prev.rest = [intsAttributeBytes('kernel_shape', [1, 1]), intsAttributeBytes('group', channels)];
        graph.nodes = graph.nodes.filter((n) => n !== mul);
        setParams(conv, p);
        folded++;
        break;
      }
      conv.inputs[0] = operand.other;
      graph.nodes = graph.nodes.filter((n) => n !== prev);
      setParams(conv, p);
      folded++;
    }
  }
  return folded;
}

/** Returns the model with PP-LCNetV3's scalar affine ops folded into the neighbouring convs. */
export function fuseConvAffine(model: Uint8Array): { model: Uint8Array; folded: number } {
  const graph = readGraph(model);
  if (!graph) return { model, folded: 0 };
  const folded = fuseConvAffineNodes(graph);
  return { model: folded > 0 ? graph.encode() : model, folded };
}
