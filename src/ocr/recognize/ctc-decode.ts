import type { RecognizedChar } from './recognized-line.ts';

export interface CtcReading {
  text: string;
  /** Mean of the characters' probabilities; 0 when nothing was read. */
  confidence: number;
  chars: RecognizedChar[];
  /** Each character's CTC peak (centre of its timesteps) as a fraction of the line, for `refineWordGaps`. */
  centres: number[];
}

interface Run {
  index: number;
  start: number;
  end: number;
  prob: number;
}

/**
 * Greedy CTC decoding (Graves et al. 2006): best class per timestep, repeats merged, blanks (class
 * 0) dropped. Each character keeps the timesteps it was emitted at: its position along the line is
 * the centre of that run, and its extent reaches halfway to its neighbours (CTC peaks are narrow
 * and sit inside the glyph, so the midpoint between peaks is the best boundary estimate we have).
 *
 * @param best per timestep, the best class's probability and its index (`timesteps × 2`: what the
 *   recognizer outputs after `top-class-output.ts`; `bestClasses` makes it from a full softmax).
 * @param contentFraction the share of the tensor width covered by the line (the rest is padding);
 *   positions are returned as fractions of the line itself.
 */
export function ctcDecode(best: Float32Array, timesteps: number, dictionary: readonly string[], contentFraction = 1): CtcReading {
  const runs: Run[] = [];
  let previous = 0;
  for (let t = 0; t < timesteps; t++) {
    const prob = best[2 * t],
      index = best[2 * t + 1];
    if (index !== 0 && index === previous) {
      const run = runs[runs.length - 1];
      run.end = t;
      run.prob = Math.max(run.prob, prob);
    } else if (index !== 0) {
      runs.push({ index, start: t, end: t, prob });
    }
    previous = index;
  }
  // Spaces only separate words: none at the ends, never two in a row.
  const kept = runs.filter((r, i, all) => dictionary[r.index] !== ' ' || (i > 0 && dictionary[all[i - 1].index] !== ' '));
  while (kept.length > 0 && dictionary[kept[kept.length - 1].index] === ' ') kept.pop();
  while (kept.length > 0 && dictionary[kept[0].index] === ' ') kept.shift();
  if (kept.length === 0) return { text: '', confidence: 0, chars: [], centres: [] };

  const scale = 1 / (timesteps * Math.max(1e-6, contentFraction));
  const centres = kept.map((r) => ((r.start + r.end + 1) / 2) * scale);
  const gaps = centres
    .slice(1)
    .map((c, i) => c - centres[i])
    .sort((a, b) => a - b);
  const pitch = gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)] : 1;
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const chars = kept.map((r, i) => ({
    text: dictionary[r.index],
    x0: clamp(i === 0 ? centres[0] - pitch / 2 : (centres[i - 1] + centres[i]) / 2),
    x1: clamp(i === kept.length - 1 ? centres[i] + pitch / 2 : (centres[i] + centres[i + 1]) / 2),
    confidence: r.prob,
  }));
  const confidence = chars.reduce((sum, c) => sum + c.confidence, 0) / chars.length;
  return { text: chars.map((c) => c.text).join(''), confidence, chars, centres };
}

/**
 * The `(probability, class)` pairs `ctcDecode` reads, from a full `timesteps × classes` softmax
 * (the first of equal maxima wins, as in onnxruntime's TopK).
 */
export function bestClasses(probs: Float32Array, timesteps: number, classes: number): Float32Array {
  const out = new Float32Array(2 * timesteps);
  for (let t = 0; t < timesteps; t++) {
    const row = t * classes;
    let index = 0;
    for (let c = 1; c < classes; c++) if (probs[row + c] > probs[row + index]) index = c;
    out[2 * t] = probs[row + index];
    out[2 * t + 1] = index;
  }
  return out;
}
