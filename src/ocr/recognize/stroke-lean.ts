import { greyOf, type LineCrop } from './crop-line.ts';
import type { Quad } from '../ocr-types.ts';

/** Leans tried, in columns per row, up to `MAX_LEAN` either way. */
const LEAN_STEP = 0.05;
const MAX_LEAN = 0.6;
/** The crop's top and bottom rows left out of the measure: a plate's frame or a neighbour's edge runs there. */
const EDGE_ROWS = 0.15;

/**
 * How far the strokes of a line crop lean: the shear (columns per row; a stroke at column x in the middle row
 * sits at x + lean · (y − middle) in row y) that piles the crop's horizontal edges into the fewest columns, as
 * upright strokes pile when the lean is undone, and how much more piled they are than unsheared (`gain` ≥ 1).
 * Columns are smoothed by a binomial kernel, so that no shear gains from how its columns round.
 */
export function strokeLean(crop: LineCrop): { lean: number; gain: number } {
  const { width, height } = crop;
  const grey = greyOf(crop);
  const middle = (height - 1) / 2;
  const margin = Math.ceil(MAX_LEAN * height) + 2;
  const columns = new Float64Array(width + 2 * margin);
  const from = Math.round(EDGE_ROWS * height),
    to = height - from;
  const piled = (lean: number) => {
    columns.fill(0);
    for (let y = from; y < to; y++) {
      const shift = margin - lean * (y - middle);
      const row = y * width;
      for (let x = 0; x + 1 < width; x++) {
        const edge = Math.abs(grey[row + x + 1] - grey[row + x]);
        if (edge !== 0) columns[Math.round(x + shift)] += edge;
      }
    }
    let sum = 0;
    for (let c = 2; c + 2 < columns.length; c++) {
      const v = columns[c - 2] + 4 * columns[c - 1] + 6 * columns[c] + 4 * columns[c + 1] + columns[c + 2];
      sum += v * v;
    }
    return sum;
  };
  const upright = piled(0);
  let lean = 0,
    best = upright;
  for (let k = 1; k * LEAN_STEP <= MAX_LEAN + 1e-9; k++) {
    for (const s of [k * LEAN_STEP, -k * LEAN_STEP]) {
      const v = piled(s);
      if (v > best) {
        best = v;
        lean = s;
      }
    }
  }
  return { lean, gain: upright === 0 ? 1 : best / upright };
}

/**
 * The quad whose crop shows the line with its strokes' `lean` undone: the top edge moves back along the line by
 * half the lean times the quad's height and the bottom edge forward by as much, and both ends grow by as much, so
 * the leaning first and last strokes stay inside.
 */
export function unleanQuad(quad: Quad, lean: number): Quad {
  const [p0, p1, p2, p3] = quad;
  const length = Math.hypot(p1.x - p0.x, p1.y - p0.y) || 1;
  const ux = (p1.x - p0.x) / length,
    uy = (p1.y - p0.y) / length;
  const half = (lean * Math.hypot(p3.x - p0.x, p3.y - p0.y)) / 2;
  const grow = Math.abs(half);
  const along = (p: { x: number; y: number }, d: number) => ({ x: p.x + d * ux, y: p.y + d * uy });
  return [along(p0, -half - grow), along(p1, -half + grow), along(p2, half + grow), along(p3, half - grow)];
}
