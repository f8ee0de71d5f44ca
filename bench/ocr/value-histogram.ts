/** Bits of a float32 dropped to make its bin: sign, exponent and the top 6 mantissa bits remain (bins ≤ 1.6 % wide). */
const SHIFT = 17;
const BINS = 2 ** (32 - SHIFT);
const SIGN_BIN = BINS / 2;

/**
 * Counts of a tensor's values in bins read straight from the float's bits (no logarithm per value),
 * so calibration can take percentiles over billions of activations in one pass and fixed memory.
 */
export class ValueHistogram {
  readonly #counts = new Float64Array(BINS);
  #total = 0;

  add(data: Float32Array): void {
    const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
    const counts = this.#counts;
    for (let i = 0; i < bits.length; i++) counts[bits[i] >>> SHIFT]++;
    this.#total += data.length;
  }

  /** The value below which a share `q` (0–1) of the values lie, rounded outwards to its bin's edge. */
  quantile(q: number): number {
    const target = q * this.#total;
    let seen = 0;
    let last = 0;
    for (const b of ascendingBins()) {
      const n = this.#counts[b];
      if (n === 0) continue;
      seen += n;
      last = b;
      if (seen >= target) break;
    }
    return binEdge(last);
  }
}

/** Bins in the order of their values: negatives from the largest magnitude (highest bits) down, then positives up. */
function* ascendingBins(): Generator<number> {
  for (let b = BINS - 1; b >= SIGN_BIN; b--) yield b;
  for (let b = 0; b < SIGN_BIN; b++) yield b;
}

const word = new Uint32Array(1);
const float = new Float32Array(word.buffer);
/** The far edge of a bin (its largest magnitude), so a range built from it still covers the bin. */
function binEdge(bin: number): number {
  word[0] = (bin << SHIFT) | ((1 << SHIFT) - 1);
  return Number.isFinite(float[0]) ? float[0] : 0;
}
