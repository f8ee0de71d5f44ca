import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fuseHardSwish } from './fuse-hardswish.ts';
import { defaultModelsDir } from './models.ts';
import { readGraph } from './onnx-graph.ts';
import { maxDifference, runOnnxModel } from '../../../test/helpers/run-onnx-model.ts';

test('the rewritten recognizer has no hard-swish chains left and computes the same output', async () => {
  const original = new Uint8Array(fs.readFileSync(path.join(defaultModelsDir(), 'ch_PP-OCRv4_rec_infer.onnx')));
  const { model, fused } = fuseHardSwish(original);
  assert.ok(fused >= 20, `${fused} hard-swish chains fused`);
  const ops = (bytes: Uint8Array) => readGraph(bytes)!.nodes.filter((n) => n.op === 'Clip').length;
  assert.equal(ops(model), ops(original) - fused, 'one Clip fewer per fused chain');
  const input = new Float32Array(3 * 48 * 160).map((_, i) => Math.sin(i) * 0.8);
  const [a, b] = await Promise.all([runOnnxModel(original, input, [1, 3, 48, 160]), runOnnxModel(model, input, [1, 3, 48, 160])]);
  const difference = maxDifference(a.data, b.data);
  assert.ok(difference < 1e-4, `max difference ${difference}`);
});

test('a model without the pattern, or not a model, is returned unchanged', () => {
  const junk = new Uint8Array([0x08, 0x01]);
  assert.deepEqual(fuseHardSwish(junk), { model: junk, fused: 0 });
  const truncated = new Uint8Array([0x3a, 0x10, 0x0a]);
  assert.deepEqual(fuseHardSwish(truncated), { model: truncated, fused: 0 });
  const empty = new Uint8Array(0);
  assert.deepEqual(fuseHardSwish(empty), { model: empty, fused: 0 });
});
