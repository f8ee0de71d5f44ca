import type { Point, Quad } from './ocr-types.ts';

/** A rotated rectangle: centre, unit axis along its width (pointing right), width and height. */
export interface RotatedRect {
  cx: number;
  cy: number;
  /** Unit vector along the width, with `ux >= |uy|`-ish: the axis closer to horizontal, pointing right. */
  ux: number;
  uy: number;
  width: number;
  height: number;
}

/** Andrew's monotone chain; `xs`/`ys` are point coordinates. Returns hull vertex indices' points. */
export function convexHull(points: Point[]): Point[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * Minimum-area enclosing rectangle of a convex hull (rotating calipers over the hull's edges),
 * oriented so its width axis is the one closer to horizontal.
 */
export function minAreaRect(hull: Point[]): RotatedRect {
  if (hull.length === 1) return { cx: hull[0].x, cy: hull[0].y, ux: 1, uy: 0, width: 0, height: 0 };
  let best = { area: Infinity, ux: 1, uy: 0, minU: 0, maxU: 0, minV: 0, maxV: 0 };
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len === 0) continue;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    let minU = Infinity,
      maxU = -Infinity,
      minV = Infinity,
      maxV = -Infinity;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < best.area) best = { area, ux, uy, minU, maxU, minV, maxV };
  }
  const { ux, uy, minU, maxU, minV, maxV } = best;
  const cu = (minU + maxU) / 2;
  const cv = (minV + maxV) / 2;
  const cx = cu * ux - cv * uy;
  const cy = cu * uy + cv * ux;
  const w = maxU - minU;
  const h = maxV - minV;
  // Axis u has extent w, axis v = (-uy, ux) has extent h; pick the more horizontal one as the width.
  const candidates = [
    { ux, uy, width: w, height: h },
    { ux: -uy, uy: ux, width: h, height: w },
  ].map((c) => (c.ux < 0 || (c.ux === 0 && c.uy < 0) ? { ...c, ux: -c.ux, uy: -c.uy } : c));
  const pick = Math.abs(candidates[0].ux) >= Math.abs(candidates[1].ux) ? candidates[0] : candidates[1];
  return { cx, cy, ...pick };
}

/** Corners top-left, top-right, bottom-right, bottom-left (the width axis runs from corner 0 to 1). */
export function rectCorners(r: RotatedRect): Quad {
  const hx = (r.ux * r.width) / 2,
    hy = (r.uy * r.width) / 2;
  // v = (-uy, ux) points "down" when u points right.
  const vx = (-r.uy * r.height) / 2,
    vy = (r.ux * r.height) / 2;
  return [
    { x: r.cx - hx - vx, y: r.cy - hy - vy },
    { x: r.cx + hx - vx, y: r.cy + hy - vy },
    { x: r.cx + hx + vx, y: r.cy + hy + vy },
    { x: r.cx - hx + vx, y: r.cy - hy + vy },
  ];
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** An upright rectangle by its edges. */
export interface Bounds {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The quad's upright bounding box. */
export function quadBounds(q: Quad): Bounds {
  return {
    x0: Math.min(q[0].x, q[1].x, q[2].x, q[3].x),
    x1: Math.max(q[0].x, q[1].x, q[2].x, q[3].x),
    y0: Math.min(q[0].y, q[1].y, q[2].y, q[3].y),
    y1: Math.max(q[0].y, q[1].y, q[2].y, q[3].y),
  };
}

/** The upright rectangle from (x0, y0) to (x1, y1) as a quad, corner 0 top-left, clockwise. */
export function rectQuad(x0: number, y0: number, x1: number, y1: number): Quad {
  return [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
}

/** The gap between two quads' upright bounding boxes (0 where they overlap): how near two lines are, whatever their lengths. */
export function quadGap(a: Quad, b: Quad): number {
  const p = quadBounds(a);
  const q = quadBounds(b);
  return Math.hypot(Math.max(0, p.x0 - q.x1, q.x0 - p.x1), Math.max(0, p.y0 - q.y1, q.y0 - p.y1));
}

/** The mean of the quad's corners. */
export function quadCentre(q: Quad): Point {
  return { x: (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y: (q[0].y + q[1].y + q[2].y + q[3].y) / 4 };
}

/** The way a line quad runs, corner 0→1: the sum of its top and bottom edges (twice their mean, so as long as the line is). */
export function quadDirection(q: Quad): Point {
  return { x: q[1].x - q[0].x + (q[2].x - q[3].x), y: q[1].y - q[0].y + (q[2].y - q[3].y) };
}

/** The quad's own size: width along corner 0→1, height along 0→3 (PaddleOCR's `get_rotate_crop_image`). */
export function quadSize(q: Quad): { width: number; height: number } {
  return {
    width: Math.max(distance(q[0], q[1]), distance(q[3], q[2])),
    height: Math.max(distance(q[0], q[3]), distance(q[1], q[2])),
  };
}

/**
 * The middle of a long line quad, at most `maxAspect` heights long (the whole quad when shorter):
 * any stretch of a line shows which way up it is, or which script it is in, at a fraction of the
 * cost of reading all of it.
 */
export function middleWindow(quad: Quad, maxAspect: number): Quad {
  const { width, height } = quadSize(quad);
  if (width <= maxAspect * height) return quad;
  const t0 = (1 - (maxAspect * height) / width) / 2,
    t1 = 1 - t0;
  const at = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  return [at(quad[0], quad[1], t0), at(quad[0], quad[1], t1), at(quad[3], quad[2], t1), at(quad[3], quad[2], t0)];
}

/** The quad's corners shifted by `k` positions: `rotateQuad(q, 1)` starts at the old corner 1. */
export function rotateQuad(q: Quad, k: number): Quad {
  return [q[k % 4], q[(k + 1) % 4], q[(k + 2) % 4], q[(k + 3) % 4]];
}

/** The quad of a whole image, corner 0 top-left, clockwise. */
export function imageQuad(size: { width: number; height: number }): Quad {
  return rectQuad(0, 0, size.width, size.height);
}
