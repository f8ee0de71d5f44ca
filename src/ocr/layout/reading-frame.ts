import { quadDirection } from '../geometry.ts';
import type { Point, Quad } from '../ocr-types.ts';

/**
 * A page's reading frame: the rotation that makes its text run left to right along +x. Layout
 * decisions (rows, columns, gaps) are made on axis-aligned boxes in this frame, so skewed scans and
 * pages photographed at 90° group the same way as upright ones; output boxes go back to page pixels.
 */
export interface ReadingFrame {
  cos: number;
  sin: number;
}

/** An axis-aligned box in the reading frame. */
export interface FrameBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The dominant text direction: the length-weighted circular mean of the lines' top edges. */
export function readingFrameOf(quads: readonly Quad[]): ReadingFrame {
  let sx = 0;
  let sy = 0;
  for (const q of quads) {
    const d = quadDirection(q);
    sx += d.x;
    sy += d.y;
  }
  const len = Math.hypot(sx, sy);
  return len > 0 ? { cos: sx / len, sin: sy / len } : { cos: 1, sin: 0 };
}

export function toFrame(f: ReadingFrame, p: Point): Point {
  return { x: p.x * f.cos + p.y * f.sin, y: -p.x * f.sin + p.y * f.cos };
}

export function fromFrame(f: ReadingFrame, p: Point): Point {
  return { x: p.x * f.cos - p.y * f.sin, y: p.x * f.sin + p.y * f.cos };
}

export function frameBoxOf(f: ReadingFrame, points: readonly Point[]): FrameBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of points) {
    const q = toFrame(f, p);
    x0 = Math.min(x0, q.x);
    y0 = Math.min(y0, q.y);
    x1 = Math.max(x1, q.x);
    y1 = Math.max(y1, q.y);
  }
  return { x0, y0, x1, y1 };
}

/** A frame box as a page quad in reading order (TL, TR, BR, BL). */
export function quadOfFrameBox(f: ReadingFrame, b: FrameBox): Quad {
  return [
    fromFrame(f, { x: b.x0, y: b.y0 }),
    fromFrame(f, { x: b.x1, y: b.y0 }),
    fromFrame(f, { x: b.x1, y: b.y1 }),
    fromFrame(f, { x: b.x0, y: b.y1 }),
  ];
}

/** Height of a line quad: mean length of its left and right edges. */
export function quadHeight(q: Quad): number {
  return (Math.hypot(q[3].x - q[0].x, q[3].y - q[0].y) + Math.hypot(q[2].x - q[1].x, q[2].y - q[1].y)) / 2;
}

/** Length of a line quad: mean length of its top and bottom edges. */
export function quadLength(q: Quad): number {
  return (Math.hypot(q[1].x - q[0].x, q[1].y - q[0].y) + Math.hypot(q[2].x - q[3].x, q[2].y - q[3].y)) / 2;
}

function lerp(a: Point, b: Point, t: number): Point {
  return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
}

/**
 * The part of a line quad between fractions `t0` and `t1` of its length, cut along both the top
 * edge (box[0]→box[1]) and the bottom edge (box[3]→box[2]), so it follows rotated and sheared lines.
 */
export function sliceQuad(q: Quad, t0: number, t1: number): Quad {
  return [lerp(q[0], q[1], t0), lerp(q[0], q[1], t1), lerp(q[3], q[2], t1), lerp(q[3], q[2], t0)];
}
