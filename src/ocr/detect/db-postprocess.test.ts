import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dbPostprocess, DEFAULT_DB_PARAMS } from './db-postprocess.ts';

function map(width: number, height: number, rects: Array<[number, number, number, number]>, p = 0.95): Float32Array {
  const m = new Float32Array(width * height);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m[y * width + x] = p;
  return m;
}

test('each text region becomes one box, grown by the unclip offset', () => {
  const boxes = dbPostprocess(
    map(200, 100, [
      [20, 20, 120, 30],
      [20, 60, 80, 70],
    ]),
    200,
    100,
  );
  assert.equal(boxes.length, 2);
  const [first] = boxes;
  const xs = first.box.map((p) => p.x),
    ys = first.box.map((p) => p.y);
  // Kernel 99×9 px (pixel centres); offset = area·1.5/perimeter ≈ 6.2 px on each side.
  assert.ok(Math.min(...xs) < 20 && Math.min(...xs) > 10);
  assert.ok(Math.max(...xs) > 119 && Math.max(...xs) < 130);
  assert.ok(Math.min(...ys) < 20 && Math.max(...ys) > 29);
  assert.ok(first.score > 0.9);
  // Corner 0 is top-left, corner 1 top-right.
  assert.ok(first.box[0].x < first.box[1].x && first.box[0].y < first.box[3].y);
});

test('specks, faint regions and empty maps give no boxes', () => {
  assert.deepEqual(dbPostprocess(map(50, 50, [[10, 10, 12, 12]]), 50, 50), []);
  assert.deepEqual(dbPostprocess(map(50, 50, [[5, 5, 45, 15]], 0.4), 50, 50), []);
  assert.deepEqual(dbPostprocess(new Float32Array(64 * 64), 64, 64), []);
});

test('the number of candidates is bounded', () => {
  const rects: Array<[number, number, number, number]> = [];
  for (let y = 0; y < 600; y += 10) for (let x = 0; x < 600; x += 10) rects.push([x, y, x + 6, y + 6]);
  const boxes = dbPostprocess(map(600, 600, rects), 600, 600, { ...DEFAULT_DB_PARAMS, maxCandidates: 100 });
  assert.ok(boxes.length <= 100);
});

test('a rotated region gives a rotated box', () => {
  const w = 200,
    h = 200,
    m = new Float32Array(w * h);
  // A 10 px thick band along the diagonal y = x (45°).
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (Math.abs(x - y) < 5 && x > 40 && x < 160) m[y * w + x] = 0.95;
  const [box] = dbPostprocess(m, w, h);
  const angle = Math.atan2(box.box[1].y - box.box[0].y, box.box[1].x - box.box[0].x);
  assert.ok(Math.abs(Math.abs(angle) - Math.PI / 4) < 0.1, `angle ${angle}`);
});

test('a line with scripts stacked above and below it is kept; a blob of the same shape is not', () => {
  // A 200×10 line with a 20×8 superscript and subscript stacked near its end (a formula's limits):
  // its bounding rectangle is mostly blank, its own outline is not.
  const line = map(260, 80, [
    [20, 30, 220, 40],
    [150, 22, 170, 30],
    [150, 40, 170, 48],
  ]);
  assert.equal(dbPostprocess(line, 260, 80).length, 1);
  // The same stack on a 40 px core: not a line, still judged by its rectangle.
  const blob = map(80, 80, [
    [20, 30, 60, 40],
    [30, 22, 40, 30],
    [30, 40, 40, 48],
  ]);
  assert.deepEqual(dbPostprocess(blob, 80, 80), []);
});
