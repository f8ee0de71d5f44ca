import { fields } from './onnx-graph.ts';

/** A float32's exponent bits: all zero in a subnormal (and in zero). */
const EXPONENT = 0x7f800000;
/** Its fraction bits: not all zero in a subnormal. */
const FRACTION = 0x007fffff;
/** TensorProto.DataType FLOAT. */
const FLOAT = 1;

/**
 * The model with every subnormal float32 weight (|w| < 2⁻¹²⁶, in initializers and Constant nodes)
 * set to zero, byte for byte otherwise. Such a weight adds nothing a float32 sum can keep, but each
 * product with one is subnormal, and Intel cores take ~100 cycles for that: PP-OCRv4's English
 * recognizer holds ~25 000 of them and read lines at half speed on a Xeon (decisions: "Subnormal
 * weights set to zero"). Bytes that are not a model come back unchanged.
 */
export function flushSubnormalWeights(model: Uint8Array): Uint8Array {
  try {
    return flushed(model);
  } catch {
    return model;
  }
}

function flushed(model: Uint8Array): Uint8Array {
  const out = model.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const flushTensor = (start: number, end: number) => {
    const parts = [...fields(out, start, end)];
    const type = parts.find((p) => p.no === 2 && p.wire === 0)?.value;
    if (type !== FLOAT) return;
    // raw_data = 9; float_data = 4 (packed): both little-endian float32s. Tested by their bits, not
    // as numbers: a thread onnxruntime set to flush subnormals would read them as zero already.
    for (const p of parts) {
      if ((p.no !== 9 && p.no !== 4) || p.wire !== 2) continue;
      for (let at = p.dataStart; at + 4 <= p.end; at += 4) {
        const bits = view.getUint32(at, true);
        if ((bits & EXPONENT) === 0 && (bits & FRACTION) !== 0) view.setUint32(at, 0, true);
      }
    }
  };
  // ModelProto.graph = 7; GraphProto.node = 1, initializer = 5; NodeProto.attribute = 5; AttributeProto.t = 5.
  for (const graph of fields(out)) {
    if (graph.no !== 7 || graph.wire !== 2) continue;
    for (const g of fields(out, graph.dataStart, graph.end)) {
      if (g.wire !== 2) continue;
      if (g.no === 5) flushTensor(g.dataStart, g.end);
      if (g.no !== 1) continue;
      for (const a of fields(out, g.dataStart, g.end)) {
        if (a.no !== 5 || a.wire !== 2) continue;
        for (const t of fields(out, a.dataStart, a.end)) if (t.no === 5 && t.wire === 2) flushTensor(t.dataStart, t.end);
      }
    }
  }
  return out;
}
