/**
 * `npm run calibrate:ocr [-- --stride N --percentile P --float-first K]`: measures the recognizer's
 * activation ranges for its int8 form (`src/ocr/models/int8-model.ts`) on the `tune` split of
 * `../shared/data/ocr-dev`, and writes them to `src/ocr/models/recognizer-int8-ranges.json` with the
 * hash of the model they belong to. Every tune image goes through the real pipeline (fp32 models,
 * the server's options for its kind); each recognizer batch is also run through a copy of the model
 * whose conv inputs and outputs are graph outputs, and each one's values are counted in a histogram
 * whose range is cut at the Pth percentile at both ends (onnxruntime's Percentile calibration; 100 is
 * its MinMax). The first K convs stay in float.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { loadEnglishLexicon } from '../../src/ocr/words/english-lexicon.ts';
import { buildInt8Model, INT8_RANGES_FILE, recognizerFile } from '../../src/ocr/models/int8-model.ts';
import { buildLayout } from '../../src/ocr/layout/build-layout.ts';
import { latinRecognizerFile, loadModels, rewriteModel, type OnnxModel } from '../../src/ocr/models/models.ts';
import { readGraph } from '../../src/ocr/models/onnx-graph.ts';
import { runOcr } from '../../src/ocr/ocr-pipeline.ts';
import { calibrationTensors } from '../../src/ocr/models/quantize-model.ts';
import { createPaddleRecognizer } from '../../src/ocr/recognize/recognize-text.ts';
import { createLanguageRouter } from '../../src/ocr/recognize/route-recognizer.ts';
import { loadOcrDev } from './ocr-dev-manifest.ts';
import { ValueHistogram } from './value-histogram.ts';
import { hintsOf, modeOf } from './run-legible.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// `--stride N`: every Nth tune image (all kinds still represented), for a quicker calibration.
// Defaults: what docs/decisions.md ("Int8 recognizer on a VNNI CPU") measured.
const { values } = parseArgs({
  options: {
    stride: { type: 'string', default: '1' },
    percentile: { type: 'string', default: '99.99' },
    'float-first': { type: 'string', default: '6' },
  },
});
const stride = Math.max(1, Number(values.stride) || 1);
const percentile = Math.min(100, Math.max(50, Number(values.percentile) || 100));
const floatFirst = Math.max(0, Number(values['float-first']) || 0);
const records = loadOcrDev(path.resolve(root, '../shared/data/ocr-dev'))
  ?.filter((r) => r.split === 'tune')
  .filter((_, i) => i % stride === 0);
if (!records?.length) {
  console.error('No tune split of ../shared/data/ocr-dev: nothing to calibrate on.');
  process.exit(1);
}

const source = new Uint8Array(fs.readFileSync(latinRecognizerFile()));
const graph = readGraph(rewriteModel(source, { topClass: true }))!;
const tensors = calibrationTensors(graph);
for (const t of tensors) graph.addFloatOutput(t);
const session = await ort.InferenceSession.create(graph.encode(), { intraOpNumThreads: 1, graphOptimizationLevel: 'all' });
const [inputName] = session.inputNames;
const outputName = session.outputNames.find((n) => !tensors.includes(n))!;
const histograms = new Map(tensors.map((t) => [t, new ValueHistogram()]));
let batches = 0;
const recording: OnnxModel = {
  async run(input, dims) {
    const out = await session.run({ [inputName]: new ort.Tensor('float32', input, dims) });
    for (const t of tensors) histograms.get(t)!.add(out[t].data as Float32Array);
    batches++;
    const o = out[outputName];
    return { data: o.data as Float32Array, dims: o.dims };
  },
};

const models = await loadModels({ threads: 1, recognizerPrecision: 'fp32' });
const lexicon = await loadEnglishLexicon();
const router = createLanguageRouter(
  createPaddleRecognizer({ ...models, latin: { model: recording, dictionary: models.latin.dictionary } }),
);
for (const r of records) {
  await runOcr(
    new Uint8Array(fs.readFileSync(r.file)),
    { models, recognizer: router.recognizer, buildLayout, lexicon },
    { mode: modeOf(r), languageHints: hintsOf(r) },
  );
  process.stderr.write('.');
}
await router.close();
await models.release();
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
const tail = (100 - percentile) / 100;
const stored = Object.fromEntries(
  tensors.map((t) => {
    const h = histograms.get(t)!;
    return [t, [h.quantile(tail), h.quantile(1 - tail)].map((v) => Number(v.toPrecision(7))) as [number, number]];
  }),
);
// The first convs read the image itself; quantized, they cost scenes 5 points of spotting F1.
const float = graph.nodes
  .filter((n) => n.op === 'Conv')
  .slice(0, floatFirst)
  .map((n) => n.outputs[0]);
const int8 = buildInt8Model(rewriteModel(source, { topClass: true }), stored, float);
if (!int8) throw new Error('the recognizer could not be quantized');
const out = {
  model: recognizerFile,
  sha256: sha256(source),
  int8Sha256: sha256(int8),
  calibration: `ocr-dev tune split: ${records.length} images, ${batches} recognizer batches, ${percentile === 100 ? 'min/max' : `percentiles ${(100 - percentile).toPrecision(2)}–${percentile}`}, first ${floatFirst} convs in float`,
  float,
  ranges: stored,
};
fs.writeFileSync(path.join(root, 'src/ocr/models', INT8_RANGES_FILE), `${JSON.stringify(out, null, 1)}\n`);
console.error(`\n${tensors.length} activation ranges from ${batches} batches written to src/ocr/models/${INT8_RANGES_FILE}`);
