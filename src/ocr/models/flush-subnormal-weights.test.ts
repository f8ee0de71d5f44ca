import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { flushSubnormalWeights } from './flush-subnormal-weights.ts';
import { latinRecognizerFile } from './models.ts';
import { maxDifference, runOnnxModel } from '../../../test/helpers/run-onnx-model.ts';

/** A protobuf field: key, then a varint or a length-delimited payload (all lengths here < 128). */
const field = (no: number, payload: number | Uint8Array) =>
  typeof payload === 'number' ? new Uint8Array([no * 8, payload]) : new Uint8Array([no * 8 + 2, payload.length, ...payload]);
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));
const floats = (values: number[]) => new Uint8Array(new Float32Array(values).buffer);
/** TensorProto { data_type = 2, raw_data = 9 } */
const tensor = (type: number, raw: Uint8Array) => cat(field(2, type), field(9, raw));

test('subnormal float weights become zero, in initializers and Constant nodes; nothing else changes', () => {
  const weights = [1e-40, 0.5, -3e-39, 2 ** -126, 0, -1e-45];
  const constant = field(1, cat(field(4, new TextEncoder().encode('Constant')), field(5, field(5, tensor(1, floats(weights))))));
  const initializer = field(5, tensor(1, floats(weights)));
  const notFloat = field(5, tensor(6, floats(weights))); // INT32: left alone
  const model = field(7, cat(constant, initializer, notFloat));
  const out = flushSubnormalWeights(model);
  assert.equal(out.length, model.length);
  // The three tensors' weights, in the order written: the Constant's and the initializer's flushed.
  const raw = floats(weights);
  const at: number[] = [];
  for (let from = 0; at.length < 3; from = at[at.length - 1] + 1) at.push(Buffer.from(model).indexOf(Buffer.from(raw), from));
  const read = (start: number) => [...new Float32Array(out.slice(start, start + raw.length).buffer)];
  const flushed = [0, 0.5, 0, 2 ** -126, 0, 0];
  assert.deepEqual(read(at[0]), flushed);
  assert.deepEqual(read(at[1]), flushed);
  assert.deepEqual(read(at[2]), [...new Float32Array(raw.buffer)]);
  // Every other byte as it was.
  const elsewhere = (bytes: Uint8Array) => [...bytes].filter((_, i) => !at.some((a) => i >= a && i < a + raw.length));
  assert.deepEqual(elsewhere(out), elsewhere(model));
});

test('bytes that are not a model come back unchanged', () => {
  for (const junk of [new Uint8Array(0), new Uint8Array([0x3a, 0x10, 0x0a]), new Uint8Array([0x0f])]) {
    assert.deepEqual(flushSubnormalWeights(junk), junk);
  }
});

test("the English recognizer's subnormal weights are flushed and it computes the same output", async () => {
  const original = new Uint8Array(fs.readFileSync(latinRecognizerFile()));
  const flushed = flushSubnormalWeights(original);
  let changed = 0;
  for (let i = 0; i < original.length; i++) if (original[i] !== flushed[i]) changed++;
  assert.ok(changed > 10_000, `${changed} bytes changed`);
  const input = new Float32Array(3 * 48 * 320).map((_, i) => Math.sin(i) * 0.8);
  const [a, b] = await Promise.all([runOnnxModel(original, input, [1, 3, 48, 320]), runOnnxModel(flushed, input, [1, 3, 48, 320])]);
  const difference = maxDifference(a.data, b.data);
  assert.ok(difference < 1e-5, `max difference ${difference}`);
});
