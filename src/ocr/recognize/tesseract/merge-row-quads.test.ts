import { test, type TestContext } from 'node:test';
import { rectQuad as box } from '../../geometry.ts';
import type { Quad } from '../../ocr-types.ts';
import { mergeRowQuads } from './merge-row-quads.ts';

const flipped = (q: Quad): Quad => [q[2], q[3], q[0], q[1]];

test('word boxes on one row of a page join into one line; other rows and far columns stay apart', (t: TestContext) => {
  const page = { width: 2000, height: 1000 };
  const merged = mergeRowQuads(
    [box(100, 100, 200, 130), box(220, 102, 320, 131), flipped(box(340, 99, 420, 129)), box(100, 200, 400, 230), box(1500, 100, 1700, 130)],
    page,
  );
  t.assert.equal(merged.length, 3);
  t.assert.deepEqual(
    merged.find((q) => q[0].x === 100 && q[0].y === 99),
    box(100, 99, 420, 131),
  );
});

test('an image holding one row is read whole (a scanned line, a word crop)', (t: TestContext) => {
  const merged = mergeRowQuads([box(30, 5, 130, 45), box(540, 8, 640, 50)], { width: 1256, height: 62 });
  t.assert.deepEqual(merged, [box(0, 0, 1256, 62)]);
});

test('vertical boxes are left alone; nothing in, nothing out', (t: TestContext) => {
  const vertical = box(10, 10, 40, 300);
  const rotated: Quad = [vertical[3], vertical[0], vertical[1], vertical[2]];
  t.assert.deepEqual(mergeRowQuads([rotated], { width: 500, height: 500 }), [rotated]);
  t.assert.deepEqual(mergeRowQuads([], { width: 10, height: 10 }), []);
});

test('thousands of boxes do not blow up', (t: TestContext) => {
  const many = Array.from({ length: 3000 }, (_, i) =>
    box((i % 50) * 40, Math.floor(i / 50) * 30, (i % 50) * 40 + 30, Math.floor(i / 50) * 30 + 20),
  );
  const merged = mergeRowQuads(many, { width: 2000, height: 1800 });
  t.assert.equal(merged.length, 60);
});
