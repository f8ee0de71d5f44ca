import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fuseConvAffine } from './fuse-conv-affine.ts';
import { fuseHardSwish } from './fuse-hardswish.ts';
import { defaultModelsDir, rewriteModel } from './models.ts';
import { readGraph } from './onnx-graph.ts';
import { maxDifference, runOnnxModel } from '../../../test/helpers/run-onnx-model.ts';

const run = async (bytes: Uint8Array, input: Float32Array, dims: readonly number[]) => (await runOnnxModel(bytes, input, dims)).data;

// Inputs with structure at several scales, in the models' normalised range.
const input = (n: number) => new Float32Array(n).map((_, i) => Math.sin(i * 0.37) * 0.9 + Math.cos(i * 0.011) * 0.3);

for (const [file, dims, minFolded] of [
  ['ch_PP-OCRv4_rec_infer.onnx', [2, 3, 48, 200], 80],
  ['ch_PP-OCRv4_det_infer.onnx', [1, 3, 96, 160], 80],
] as const) {
  test(`${file}: affine ops folded into the convs, same output to 1e-4`, async () => {
    const original = new Uint8Array(fs.readFileSync(path.join(defaultModelsDir(), file)));
    const { model, folded } = fuseConvAffine(fuseHardSwish(original).model);
    assert.ok(folded >= minFolded, `${folded} affine ops folded`);
    const count = (bytes: Uint8Array, op: string) => readGraph(bytes)!.nodes.filter((n) => n.op === op).length;
    const affine = (bytes: Uint8Array) => count(bytes, 'Mul') + count(bytes, 'Add');
    assert.ok(affine(model) < affine(original) / 2, `Mul + Add: ${affine(original)} → ${affine(model)}`);
    const x = input(dims.reduce((a: number, b: number) => a * b, 1));
    const [a, b, c] = await Promise.all([run(original, x, [...dims]), run(model, x, [...dims]), run(rewriteModel(original), x, [...dims])]);
    assert.ok(maxDifference(a, b) < 1e-4, `max difference ${maxDifference(a, b)}`);
    assert.ok(maxDifference(a, c) < 1e-4, `rewriteModel: max difference ${maxDifference(a, c)}`);
  });
}

test('the classifier (no affine blocks) and non-models come back unchanged', () => {
  const classifier = new Uint8Array(fs.readFileSync(path.join(defaultModelsDir(), 'ch_ppocr_mobile_v2.0_cls_infer.onnx')));
  assert.equal(fuseConvAffine(classifier).folded, 0);
  const junk = new Uint8Array([0xff, 0xff, 0xff]);
  assert.deepEqual(fuseConvAffine(junk), { model: junk, folded: 0 });
  assert.equal(rewriteModel(junk), junk);
});
