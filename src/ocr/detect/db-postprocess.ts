import { convexHull, minAreaRect, rectCorners, type RotatedRect } from '../geometry.ts';
import type { Point, Quad } from '../ocr-types.ts';

/**
 * Differentiable Binarization post-processing (Liao et al., https://arxiv.org/abs/1911.08947),
 * following PaddleOCR's `DBPostProcess` (ppocr/postprocess/db_postprocess.py): threshold the
 * probability map, take connected regions, fit minimum-area rectangles, drop low-scoring ones and
 * grow each by the Vatti offset `area * unclipRatio / perimeter` that undoes the shrinking used in
 * training.
 */
export interface DbParams {
  /** Pixel threshold on the probability map. */
  thresh: number;
  /** Mean probability inside a box below which it is dropped. */
  boxThresh: number;
  unclipRatio: number;
  maxCandidates: number;
  /** Boxes whose short side is below this (in map pixels) are dropped. */
  minSize: number;
}

export const DEFAULT_DB_PARAMS: DbParams = { thresh: 0.3, boxThresh: 0.6, unclipRatio: 1.5, maxCandidates: 1000, minSize: 3 };

export interface DetectedBox {
  /** In probability-map pixels; corner 0→1 runs along the side closer to horizontal. */
  box: Quad;
  score: number;
}

interface Region {
  /** For each row the region touches: y, leftmost x, rightmost x. */
  rows: number[];
  pixels: number;
}

/** 8-connected regions of `prob > thresh`, scanned in raster order (union-find, two passes). */
function regions(prob: Float32Array, width: number, height: number, thresh: number): Region[] {
  const labels = new Int32Array(width * height);
  const parent: number[] = [0];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  const union = (a: number, b: number): number => {
    const ra = find(a),
      rb = find(b);
    if (ra === rb) return ra;
    const [lo, hi] = ra < rb ? [ra, rb] : [rb, ra];
    parent[hi] = lo;
    return lo;
  };
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (prob[i] <= thresh) continue;
      let label = x > 0 ? labels[i - 1] : 0;
      if (y > 0) {
        const up = i - width;
        if (x > 0 && labels[up - 1] !== 0) label = label === 0 ? labels[up - 1] : union(label, labels[up - 1]);
        if (labels[up] !== 0) label = label === 0 ? labels[up] : union(label, labels[up]);
        if (x + 1 < width && labels[up + 1] !== 0) label = label === 0 ? labels[up + 1] : union(label, labels[up + 1]);
      }
      if (label === 0) {
        label = parent.length;
        parent.push(label);
      }
      labels[i] = label;
    }
  }
  const byRoot = new Map<number, Region>();
  const out: Region[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const l = labels[row + x];
      if (l === 0) continue;
      const root = find(l);
      let region = byRoot.get(root);
      if (!region) {
        region = { rows: [], pixels: 0 };
        byRoot.set(root, region);
        out.push(region);
      }
      region.pixels++;
      const r = region.rows;
      if (r.length > 0 && r[r.length - 3] === y) r[r.length - 1] = x;
      else r.push(y, x, x);
    }
  }
  return out;
}

/** Mean probability inside a convex quad (PaddleOCR's `box_score_fast` uses the same polygon mask). */
function quadScore(prob: Float32Array, width: number, height: number, quad: Quad): number {
  const ys = quad.map((p) => p.y);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  let sum = 0,
    count = 0;
  for (let y = y0; y <= y1; y++) {
    let left = Infinity,
      right = -Infinity;
    for (let k = 0; k < 4; k++) {
      const a = quad[k],
        b = quad[(k + 1) % 4];
      if ((a.y <= y && b.y >= y) || (b.y <= y && a.y >= y)) {
        const x = a.y === b.y ? Math.min(a.x, b.x) : a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y);
        const x2 = a.y === b.y ? Math.max(a.x, b.x) : x;
        left = Math.min(left, x);
        right = Math.max(right, x2);
      }
    }
    const xl = Math.max(0, Math.ceil(left));
    const xr = Math.min(width - 1, Math.floor(right));
    for (let x = xl; x <= xr; x++) {
      sum += prob[y * width + x];
      count++;
    }
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * A line with an irregular outline (super- and subscripts, a formula's stacked limits) scores low
 * inside its bounding rectangle, which counts the blank around the scripts. A wide region (a line,
 * not a blob or a speck) that fails there is judged inside its own outline, as PaddleOCR's
 * `score_mode: slow` judges every region: arXiv pages lost whole lines of formulae (docs/decisions.md).
 */
const LINE_ASPECT = 4;

/** Mean probability inside the region's outline, row by row (PaddleOCR's `box_score_slow`, holes included). */
function regionScore(prob: Float32Array, width: number, region: Region): number {
  let sum = 0,
    count = 0;
  const r = region.rows;
  for (let k = 0; k < r.length; k += 3) {
    const row = r[k] * width;
    for (let x = r[k + 1]; x <= r[k + 2]; x++) sum += prob[row + x];
    count += r[k + 2] - r[k + 1] + 1;
  }
  return count === 0 ? 0 : sum / count;
}

function unclip(rect: RotatedRect, ratio: number): RotatedRect {
  const area = rect.width * rect.height;
  const perimeter = 2 * (rect.width + rect.height);
  const d = perimeter === 0 ? 0 : (area * ratio) / perimeter;
  return { ...rect, width: rect.width + 2 * d, height: rect.height + 2 * d };
}

/** Probability map (`height × width`, row-major) → text boxes in map pixels, best-first order kept as scanned. */
export function dbPostprocess(prob: Float32Array, width: number, height: number, params: DbParams = DEFAULT_DB_PARAMS): DetectedBox[] {
  const boxes: DetectedBox[] = [];
  const found = regions(prob, width, height, params.thresh)
    .filter((r) => r.pixels >= params.minSize * params.minSize)
    .slice(0, params.maxCandidates);
  for (const region of found) {
    const points: Point[] = [];
    for (let k = 0; k < region.rows.length; k += 3) {
      const y = region.rows[k];
      points.push({ x: region.rows[k + 1], y }, { x: region.rows[k + 2], y });
    }
    const rect = minAreaRect(convexHull(points));
    if (Math.min(rect.width, rect.height) < params.minSize) continue;
    let score = quadScore(prob, width, height, rectCorners(rect));
    if (score < params.boxThresh && Math.max(rect.width, rect.height) >= LINE_ASPECT * Math.min(rect.width, rect.height))
      score = Math.max(score, regionScore(prob, width, region));
    if (score < params.boxThresh) continue;
    const grown = unclip(rect, params.unclipRatio);
    if (Math.min(grown.width, grown.height) < params.minSize + 2) continue;
    boxes.push({ box: rectCorners(grown), score });
  }
  return boxes;
}
