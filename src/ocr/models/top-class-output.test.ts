import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { bestClasses } from '../recognize/ctc-decode.ts';
import { defaultModelsDir, latinRecognizerFile } from './models.ts';
import { OUTPUT_COLUMNS, topClassOutput } from './top-class-output.ts';
import { runOnnxModel } from '../../../test/helpers/run-onnx-model.ts';

// The Chinese recognizer is an opset-9 graph (TopK's k and Slice's bounds attributes), the English one opset 10 (inputs).
for (const [name, file] of [
  ['Chinese', () => path.join(defaultModelsDir(), 'ch_PP-OCRv4_rec_infer.onnx')],
  ['English', latinRecognizerFile],
] as const)
  test(`the ${name} recognizer outputs its top classes (probabilities, then indices) and the space's probability per timestep, as the full softmax says`, async () => {
    const original = new Uint8Array(fs.readFileSync(file()));
    const { model, rewritten } = topClassOutput(original);
    assert.equal(rewritten, 1);
    const dims = [2, 3, 48, 160];
    const x = new Float32Array(dims.reduce((a, b) => a * b, 1)).map((_, i) => Math.sin(i * 0.37) * 0.9 + Math.cos(i * 0.011) * 0.3);
    const [full, top] = await Promise.all([runOnnxModel(original, x, dims), runOnnxModel(model, x, dims)]);
    const [batch, timesteps, classes] = full.dims;
    assert.deepEqual(top.dims, [batch, timesteps, OUTPUT_COLUMNS]);
    assert.deepEqual(top.data, bestClasses(full.data, batch * timesteps, classes));
  });

test('a model without a softmax output, and bytes that are no model, come back unchanged', () => {
  const detector = new Uint8Array(fs.readFileSync(path.join(defaultModelsDir(), 'ch_PP-OCRv4_det_infer.onnx')));
  assert.equal(topClassOutput(detector).rewritten, 0);
  const junk = new Uint8Array([0xff, 0xff, 0xff]);
  assert.deepEqual(topClassOutput(junk), { model: junk, rewritten: 0 });
});
