import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { editDistance } from '../../../bench/ocr/char-error-rate.ts';
import { buildInt8Model, int8Recognizer, readInt8Calibration } from './int8-model.ts';
import { defaultModelsDir, LATIN_CHARACTERS, latinRecognizerFile, rewriteModel, type OnnxModel } from './models.ts';
import { readGraph } from './onnx-graph.ts';
import { calibrationTensors, uint8Params, upgradeToOpset10 } from './quantize-model.ts';
import { recognizeLines } from '../recognize/recognize-text.ts';
import type { Quad } from '../ocr-types.ts';

const source = new Uint8Array(fs.readFileSync(latinRecognizerFile()));
const rewrite = () => rewriteModel(source, { topClass: true });
const sha256 = (b: Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

async function session(bytes: Uint8Array): Promise<{ model: OnnxModel; release(): Promise<void> }> {
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
  return {
    model: {
      async run(input, dims) {
        const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', input, dims) });
        const t = out[s.outputNames[0]];
        return { data: t.data as Float32Array, dims: t.dims };
      },
    },
    release: () => s.release(),
  };
}

test('uint8 parameters cover the range and keep 0 exact', () => {
  assert.deepEqual(uint8Params(0, 0), { scale: 1, zeroPoint: 0 });
  const p = uint8Params(-1, 3);
  assert.ok(Math.abs(p.scale - 4 / 255) < 1e-9);
  assert.equal(p.zeroPoint, 64);
  assert.equal(uint8Params(2, 5).zeroPoint, 0, 'a positive range still includes 0');
});

test('an opset-9 recognizer (the Chinese one) moved to opset 10 (Slice and TopK inputs) gives the same output', async () => {
  const han = rewriteModel(new Uint8Array(fs.readFileSync(path.join(defaultModelsDir(), 'ch_PP-OCRv4_rec_infer.onnx'))), {
    topClass: true,
  });
  const graph = readGraph(han)!;
  assert.ok(calibrationTensors(graph).length > 50);
  assert.equal(upgradeToOpset10(graph), true);
  const dims = [2, 3, 48, 160];
  const x = new Float32Array(2 * 3 * 48 * 160).map((_, i) => Math.sin(i * 0.37) * 0.9);
  const [a, b] = await Promise.all([session(han), session(graph.encode())]);
  const [ya, yb] = await Promise.all([a.model.run(x, dims), b.model.run(x, dims)]);
  assert.deepEqual(yb.dims, ya.dims);
  assert.deepEqual([...yb.data], [...ya.data]);
  await Promise.all([a.release(), b.release()]);
});

test('the int8 recognizer: hard-swishes between int8 convs are int8 too, the convs named float stay float', async () => {
  const calibration = await readInt8Calibration();
  const hardSigmoids = (g: ReturnType<typeof readGraph>) => g!.nodes.filter((n) => n.op === 'HardSigmoid').length;
  const before = hardSigmoids(readGraph(rewrite()));
  const graph = readGraph(buildInt8Model(rewrite(), calibration.ranges, calibration.float)!)!;
  // The rest read a float conv's output or feed more than the next conv (squeeze-excitation gates, the neck).
  assert.ok(hardSigmoids(graph) < before / 3, `${hardSigmoids(graph)} of ${before} left`);
  const producer = new Map(graph.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const depthwise = graph.nodes.filter((n) => n.op === 'Conv' && n.outputs[0].endsWith('__float') && n.inputs[1].includes('__hs'));
  assert.ok(depthwise.length > 10);
  for (const conv of depthwise) assert.equal(producer.get(conv.inputs[0])?.op, 'DequantizeLinear', 'reads the int8 conv output');
  assert.ok(calibration.float && calibration.float.length > 0);
  for (const name of calibration.float) {
    const conv = producer.get(name)!;
    assert.equal(conv.op, 'Conv', name);
    assert.notEqual(producer.get(conv.inputs[1])?.op, 'DequantizeLinear', `${name} keeps float weights`);
  }
});

test('the int8 recognizer is built, cached, verified by its hash, and reads a line nearly as the fp32 one does', async (t) => {
  const calibration = await readInt8Calibration();
  assert.equal(calibration.sha256, sha256(source), 'the stored ranges belong to the npm model');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-int8-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const built = await int8Recognizer(source, rewrite, dir);
  assert.ok(built);
  assert.equal(sha256(built), calibration.int8Sha256);
  const [cached] = fs.readdirSync(dir);
  assert.match(cached, /\.int8\.[0-9a-f]{16}\.onnx$/);
  // A damaged cache file is not used: it is built again and replaced.
  fs.writeFileSync(path.join(dir, cached), 'not a model');
  const again = await int8Recognizer(source, rewrite, dir);
  assert.equal(sha256(again!), calibration.int8Sha256);
  assert.equal(sha256(fs.readFileSync(path.join(dir, cached))), calibration.int8Sha256);
  // Ranges measured on another model are not applied to this one.
  assert.equal(await int8Recognizer(new Uint8Array([1, 2, 3]), rewrite, dir), undefined);

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="64"><rect width="100%" height="100%" fill="#fff"/>
    <text x="12" y="44" font-family="DejaVu Sans" font-size="32">Invoice total 42.50 EUR</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = { width: info.width, height: info.height, rgb: new Uint8Array(data), format: 'png' as const, scale: 1 };
  const quad: Quad = [
    { x: 0, y: 0 },
    { x: 520, y: 0 },
    { x: 520, y: 64 },
    { x: 0, y: 64 },
  ];
  const dictionary = ['', ...LATIN_CHARACTERS, ' '];
  const [fp32, int8] = await Promise.all([session(rewrite()), session(built)]);
  const [a] = await recognizeLines(image, [quad], fp32.model, dictionary);
  const [b] = await recognizeLines(image, [quad], int8.model, dictionary);
  assert.match(a.text, /total 42\.50 EUR/);
  // Not always the same: on ocr-dev int8 alone lost points (docs/decisions.md), which is why doubtful lines are read again in fp32.
  assert.ok(editDistance(a.text, b.text) <= 2, `${a.text} / ${b.text}`);
  await Promise.all([fp32.release(), int8.release()]);
});
