import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Quad } from '../ocr-types.ts';
import { isCrop, linesOfCrop } from './lines-of-crop.ts';

const box = (x: number, y: number, w: number, h: number): Quad => [
  { x, y },
  { x: x + w, y },
  { x: x + w, y: y + h },
  { x, y: y + h },
];

test('word and line crops are told from photos and pages by their size', () => {
  assert.ok(isCrop({ width: 240, height: 240 }));
  assert.ok(isCrop({ width: 1220, height: 43 }));
  assert.ok(isCrop({ width: 60, height: 900 }));
  assert.ok(!isCrop({ width: 1280, height: 720 }));
  assert.ok(!isCrop({ width: 300, height: 260 }));
  // Hostile strips (a decompression bomb 60 000 px long) are no line to read whole.
  assert.ok(!isCrop({ width: 60_000, height: 10 }));
  assert.ok(!isCrop({ width: 256, height: 1 }));
});

test('on a crop, rows of slivers (LED dots) are texture; one line-sized box keeps them all', () => {
  const crop = { width: 324, height: 153 };
  const rows = Array.from({ length: 20 }, (_, i) => box(10, 5 + i * 7, 300, 5));
  assert.deepEqual(linesOfCrop(crop, rows), []);
  const withLine = [...rows, box(10, 40, 300, 60)];
  assert.equal(linesOfCrop(crop, withLine), withLine);
  // A thin strip holding a line of its own height: the line stays.
  assert.equal(linesOfCrop({ width: 1220, height: 43 }, [box(5, 5, 1200, 30)]).length, 1);
});

test('hostile input: no boxes, degenerate boxes, zero-sized images', () => {
  assert.deepEqual(linesOfCrop({ width: 100, height: 50 }, []), []);
  assert.deepEqual(linesOfCrop({ width: 100, height: 50 }, [box(0, 0, 0, 0)]), []);
  assert.deepEqual(linesOfCrop({ width: 0, height: 0 }, [box(0, 0, 3, 3)]).length, 1);
});
