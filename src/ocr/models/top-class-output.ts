import {
  intAttribute,
  intsAttributeBytes,
  opsetVersion,
  readGraph,
  typedConstantNode,
  type GraphNode,
  type OnnxGraph,
} from './onnx-graph.ts';

/** Classes kept per timestep: the best, read, and two runners-up, the alternatives the lexicon may pick (`correct-lookalike-letters.ts`). */
export const TOP_CLASSES = 3;
/**
 * Columns per timestep of the rewritten output: the top classes' probabilities (best first), their
 * class indices (as floats), then the space's probability.
 */
export const OUTPUT_COLUMNS = 2 * TOP_CLASSES + 1;

/**
 * A load-time rewrite of the PP-OCRv4 recognizer: its output, a softmax over 6 625 classes per
 * timestep, becomes `[batch, timesteps, OUTPUT_COLUMNS]` = the probabilities and class indices of the
 * `TOP_CLASSES` most likely classes and the probability of the last class, the space, which is all
 * CTC decoding reads (`ctc-decode.ts`). A `TopK` and a `Slice` over the softmax (then `Cast` and
 * `Concat`) cost onnxruntime what the copy of the full output did, but the worker no longer receives
 * ~10 MB per batch of 8 lines: every such buffer was fresh memory to page in and external memory that
 * drove V8 into major garbage collections (with the lexicon on the heap, each one a long marking).
 * Measured on ocr-dev's receipts, in process: wall time −10 %, GC helper threads' CPU halved.
 *
 * `opset` is the model's (`opsetVersion`): TopK takes `k` and Slice its bounds as attributes before
 * opset 10 (the Chinese recognizer), as inputs from then on (the English one).
 *
 * Returns 1 when the graph's softmax output was rewritten, 0 when it has none.
 */
export function topClassOutputNodes(graph: OnnxGraph, opset: number): number {
  const softmax = graph.nodes.find((n) => n.op === 'Softmax' && graph.outputs.has(n.outputs[0]));
  const axis = softmax && intAttribute(softmax, 'axis');
  if (!softmax || axis === undefined) return 0;
  const output = softmax.outputs[0];
  const probs = `${output}__probs`,
    top = `${output}__top`,
    index = `${output}__index`,
    indexFloat = `${output}__index_float`;
  softmax.outputs = [probs];
  const k = `${output}__k`;
  const topK: GraphNode[] =
    opset >= 10
      ? [
          typedConstantNode(k, [1], new BigInt64Array([BigInt(TOP_CLASSES)])),
          { inputs: [probs, k], outputs: [top, index], op: 'TopK', rest: [intsAttributeBytes('axis', axis)] },
        ]
      : [
          {
            inputs: [probs],
            outputs: [top, index],
            op: 'TopK',
            rest: [intsAttributeBytes('k', TOP_CLASSES), intsAttributeBytes('axis', axis)],
          },
        ];
  // The last class along the softmax's axis (PaddleOCR appends the space to the character list);
  // Slice clamps an end beyond the axis to its length.
  const end = 1_000_000_000;
  const space = `${output}__space`;
  const [starts, ends, axes] = [`${output}__starts`, `${output}__ends`, `${output}__axes`];
  const slice: GraphNode[] =
    opset >= 10
      ? [
          typedConstantNode(starts, [1], new BigInt64Array([-1n])),
          typedConstantNode(ends, [1], new BigInt64Array([BigInt(end)])),
          typedConstantNode(axes, [1], new BigInt64Array([BigInt(axis)])),
          { inputs: [probs, starts, ends, axes], outputs: [space], op: 'Slice', rest: [] },
        ]
      : [
          {
            inputs: [probs],
            outputs: [space],
            op: 'Slice',
            rest: [intsAttributeBytes('starts', [-1]), intsAttributeBytes('ends', [end]), intsAttributeBytes('axes', [axis])],
          },
        ];
  graph.nodes.push(
    ...topK,
    ...slice,
    // Cast `to` = 1 is FLOAT (an attribute in every opset).
    { inputs: [index], outputs: [indexFloat], op: 'Cast', rest: [intsAttributeBytes('to', 1)] },
    { inputs: [top, indexFloat, space], outputs: [output], op: 'Concat', rest: [intsAttributeBytes('axis', axis)] },
  );
  graph.redeclareFloatOutput(output);
  return 1;
}

/** Returns the model with its softmax output reduced to its top classes and the space's probability (`OUTPUT_COLUMNS`). */
export function topClassOutput(model: Uint8Array): { model: Uint8Array; rewritten: number } {
  const graph = readGraph(model);
  if (!graph) return { model, rewritten: 0 };
  const rewritten = topClassOutputNodes(graph, opsetVersion(model));
  return { model: rewritten > 0 ? graph.encode() : model, rewritten };
}
