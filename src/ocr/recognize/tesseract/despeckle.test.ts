import assert from 'node:assert/strict';
import test from 'node:test';
import { despeckle } from './despeckle.ts';

const W = 40;
const H = 30;

function page(paint: (set: (x: number, y: number, v?: number) => void) => void): Uint8Array {
  const grey = new Uint8Array(W * H).fill(240);
  paint((x, y, v = 0) => {
    grey[y * W + x] = v;
  });
  return grey;
}

test('despeckle whites out blobs up to the speck size and keeps letters, stops and hairlines', () => {
  const grey = page((set) => {
    for (const [x, y] of [
      [2, 2],
      [3, 2],
      [3, 3],
    ])
      set(x, y); // a 3-pixel speck
    set(30, 3, 60); // a dark grey speck of one pixel
    for (let y = 10; y < 14; y++) for (let x = 10; x < 14; x++) set(x, y); // a 16-pixel stop
    for (let x = 0; x < 30; x++) set(x, 20 + (x % 2)); // a one-pixel hairline, zigzagging (8-connected)
    set(35, 25, 200); // light grey: paper, not ink
  });
  const before = new Uint8Array(grey);
  const clean = despeckle(grey, W, H, 6);
  assert.deepEqual(grey, before, 'the input is not changed');
  assert.equal(clean[2 * W + 2], 255);
  assert.equal(clean[3 * W + 3], 255);
  assert.equal(clean[3 * W + 30], 255);
  for (let y = 10; y < 14; y++) for (let x = 10; x < 14; x++) assert.equal(clean[y * W + x], 0);
  for (let x = 0; x < 30; x++) assert.equal(clean[(20 + (x % 2)) * W + x], 0);
  assert.equal(clean[25 * W + 35], 200);
});

test('despeckle keeps a blob of exactly the limit plus one, and an all-ink page', () => {
  const grey = page((set) => {
    for (let x = 5; x < 12; x++) set(x, 5); // 7 pixels
  });
  assert.equal(despeckle(grey, W, H, 6)[5 * W + 5], 0);
  assert.equal(despeckle(grey, W, H, 7)[5 * W + 5], 255);
  const ink = new Uint8Array(W * H);
  assert.deepEqual(despeckle(ink, W, H, 6), ink);
});
