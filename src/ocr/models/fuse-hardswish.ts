import { floatAttribute, readGraph, type OnnxGraph } from './onnx-graph.ts';

/**
 * A load-time rewrite of the PP-OCR ONNX graphs. Paddle2ONNX exports every hard-swish (there are
 * 28 in the recognizer, 24 in the detector, 18 in the classifier) as four element-wise nodes,
 * `x · clip(x + 3, 0, 6) / 6`, each a full pass over the activation; onnxruntime fuses none of them.
 * Rewriting each as `x · HardSigmoid(x)` (α = 1/6, β = 0.5, the same function) halves those passes.
 */
export function fuseHardSwishNodes(graph: OnnxGraph): number {
  const { nodes } = graph;
  const producer = new Map(nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const uses = new Map<string, number>();
  for (const n of nodes) n.inputs.forEach((i) => uses.set(i, (uses.get(i) ?? 0) + 1));
  const removed = new Set<(typeof nodes)[number]>();
  let fused = 0;
  for (const div of nodes) {
    if (div.op !== 'Div') continue;
    const mul = producer.get(div.inputs[0]);
    const clip = mul?.op === 'Mul' ? producer.get(mul.inputs[1]) : undefined;
    const add = clip?.op === 'Clip' ? producer.get(clip.inputs[0]) : undefined;
    if (!mul || !clip || !add || add.op !== 'Add') continue;
    const x = mul.inputs[0];
    if (add.inputs[0] !== x || [mul, clip, add].some((n) => uses.get(n.outputs[0]) !== 1 || graph.outputs.has(n.outputs[0]))) continue;
    // The constants (3, 0, 6, 6) are Paddle2ONNX's hard-swish helpers; they are not checked here
    // because the 4-node chain with this wiring is only emitted for hard-swish.
    add.op = 'HardSigmoid';
    add.inputs = [x];
    add.rest = [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)];
    mul.inputs = [x, add.outputs[0]];
    mul.outputs = [div.outputs[0]];
    removed.add(clip).add(div);
    fused++;
  }
  graph.nodes = nodes.filter((n) => !removed.has(n));
  return fused;
}

/** Returns the model with every `x · clip(x + 3, 0, 6) / 6` replaced by `x · HardSigmoid(x)`. */
export function fuseHardSwish(model: Uint8Array): { model: Uint8Array; fused: number } {
  const graph = readGraph(model);
  if (!graph) return { model, fused: 0 };
  const fused = fuseHardSwishNodes(graph);
  return { model: fused > 0 ? graph.encode() : model, fused };
}
