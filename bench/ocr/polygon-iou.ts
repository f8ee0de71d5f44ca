/** A polygon as `[x, y]` points (the manifest's format). */
export type Polygon = ReadonlyArray<readonly [number, number]>;

/**
 * Intersection over union of two polygons, taken on their convex hulls (ICDAR word quads are
 * convex or nearly so; a hull keeps Sutherland–Hodgman clipping exact).
 */
export function polygonIou(a: Polygon, b: Polygon): number {
  const ha = convexHull(a);
  const hb = convexHull(b);
  const inter = area(clip(ha, hb));
  const union = area(ha) + area(hb) - inter;
  return union > 0 ? inter / union : 0;
}

/** Area of `a` that lies inside `b`, as a fraction of `a`'s area (for "don't care" regions). */
export function coveredFraction(a: Polygon, b: Polygon): number {
  const ha = convexHull(a);
  const own = area(ha);
  return own > 0 ? area(clip(ha, convexHull(b))) / own : 0;
}

export function area(p: Polygon): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const [x1, y1] = p[i];
    const [x2, y2] = p[(i + 1) % p.length];
    s += x1 * y2 - x2 * y1;
  }
  return Math.abs(s) / 2;
}

/** Andrew's monotone chain; counter-clockwise in a y-up frame, no collinear points. */
export function convexHull(points: Polygon): Array<[number, number]> {
  const pts = points
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
    .map(([x, y]) => [x, y] as [number, number])
    .sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (pts.length < 3) return pts;
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Array<[number, number]> = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Array<[number, number]> = [];
  for (const p of [...pts].reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** Sutherland–Hodgman: `subject` clipped by the convex, counter-clockwise `clipper`. */
function clip(subject: Polygon, clipper: Polygon): Polygon {
  if (subject.length < 3 || clipper.length < 3) return [];
  let out: Array<readonly [number, number]> = [...subject];
  for (let i = 0; i < clipper.length && out.length > 0; i++) {
    const a = clipper[i];
    const b = clipper[(i + 1) % clipper.length];
    const inside = (p: readonly [number, number]) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0;
    const cut = (p: readonly [number, number], q: readonly [number, number]): [number, number] => {
      const a1 = b[1] - a[1];
      const b1 = a[0] - b[0];
      const c1 = a1 * a[0] + b1 * a[1];
      const a2 = q[1] - p[1];
      const b2 = p[0] - q[0];
      const c2 = a2 * p[0] + b2 * p[1];
      const det = a1 * b2 - a2 * b1;
      return det === 0 ? [q[0], q[1]] : [(b2 * c1 - b1 * c2) / det, (a1 * c2 - a2 * c1) / det];
    };
    const input = out;
    out = [];
    for (let k = 0; k < input.length; k++) {
      const cur = input[k];
      const prev = input[(k + input.length - 1) % input.length];
      if (inside(cur)) {
        if (!inside(prev)) out.push(cut(prev, cur));
        out.push(cur);
      } else if (inside(prev)) {
        out.push(cut(prev, cur));
      }
    }
  }
  return out;
}
