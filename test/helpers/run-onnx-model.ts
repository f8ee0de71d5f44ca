import assert from 'node:assert/strict';
import * as ort from 'onnxruntime-node';

/** Runs `model` once on one float input, in a session of its own (one thread), and returns its first output. */
export async function runOnnxModel(
  model: Uint8Array,
  input: Float32Array,
  dims: readonly number[],
): Promise<{ data: Float32Array; dims: readonly number[] }> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const out = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input, dims) });
  await session.release();
  const tensor = out[session.outputNames[0]];
  return { data: tensor.data as Float32Array, dims: tensor.dims };
}

/** The largest absolute difference between two outputs of the same shape: a rewrite's deviation from the original. */
export function maxDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}
