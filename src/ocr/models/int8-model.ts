import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { opsetVersion, readGraph } from './onnx-graph.ts';
import { quantizeConvNodes, upgradeToOpset10, type ActivationRanges } from './quantize-model.ts';

/** The model the int8 form is made from: the Latin recognizer (`latinRecognizerFile` in `models.ts`), which reads documents. */
export const recognizerFile = 'en_PP-OCRv4_rec.onnx';
/** Written by `npm run calibrate:ocr` (ocr-dev's tune split), next to this file. */
export const INT8_RANGES_FILE = 'recognizer-int8-ranges.json';

export interface Int8Calibration {
  model: string;
  /** The npm model the ranges were measured on. */
  sha256: string;
  /** The int8 model these ranges give: what a built or cached copy must hash to before it is used. */
  int8Sha256?: string;
  calibration: string;
  ranges: ActivationRanges;
  /** Convs (by output tensor) left in float. */
  float?: string[];
}

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * The recognizer (already rewritten by `rewriteModel`) with its convs, except `float`, and their
 * hard-swishes in int8 (QLinearConv needs opset 10: an older graph is moved there); undefined when it cannot be.
 */
export function buildInt8Model(rewritten: Uint8Array, ranges: ActivationRanges, float: readonly string[] = []): Uint8Array | undefined {
  const graph = readGraph(rewritten);
  if (!graph || (opsetVersion(rewritten) < 10 && !upgradeToOpset10(graph))) return undefined;
  return quantizeConvNodes(graph, ranges, new Set(float)) > 0 ? graph.encode() : undefined;
}

export async function readInt8Calibration(): Promise<Int8Calibration> {
  return JSON.parse(await fs.readFile(path.join(import.meta.dirname, INT8_RANGES_FILE), 'utf8')) as Int8Calibration;
}

/**
 * The int8 recognizer, or undefined (run it in fp32) when the stored calibration is for another
 * model or its result does not hash to what was measured. Built from the npm model at start-up
 * (~1 s) and cached under `cacheDir` (`DATA_DIR/models`); a cached copy is used only when its
 * SHA-256 is the calibration's `int8Sha256`, otherwise it is built again and replaced.
 */
export async function int8Recognizer(source: Uint8Array, rewrite: () => Uint8Array, cacheDir?: string): Promise<Uint8Array | undefined> {
  const cal = await readInt8Calibration();
  if (cal.sha256 !== sha256(source) || !cal.int8Sha256) return undefined;
  const file = cacheDir && path.join(cacheDir, `${path.basename(recognizerFile, '.onnx')}.int8.${cal.int8Sha256.slice(0, 16)}.onnx`);
  if (file) {
    const cached = await fs.readFile(file).then(
      (b) => new Uint8Array(b),
      () => undefined,
    );
    if (cached && sha256(cached) === cal.int8Sha256) return cached;
  }
  const built = buildInt8Model(rewrite(), cal.ranges, cal.float);
  if (!built || sha256(built) !== cal.int8Sha256) return undefined;
  if (file) {
    // Written under a unique name, then renamed: a reader never sees half a file, and two workers may race.
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(tmp, built);
    await fs.rename(tmp, file);
  }
  return built;
}
