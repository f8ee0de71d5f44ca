import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DecodedImage } from '../decode/decode-image.ts';
import type { Quad } from '../ocr-types.ts';
import { pageTurn, turnImage, unturnPoint, type LineVote, type QuarterTurns } from './page-turn.ts';

/** A line quad in reading order whose reading direction is `degrees` (clockwise from +x, image y down). */
function line(x: number, y: number, degrees: number, length = 400, height = 30): Quad {
  const a = (degrees * Math.PI) / 180;
  const along = { x: Math.cos(a), y: Math.sin(a) };
  const down = { x: -Math.sin(a), y: Math.cos(a) };
  const p = (s: number, t: number) => ({ x: x + along.x * s + down.x * t, y: y + along.y * s + down.y * t });
  return [p(0, 0), p(length, 0), p(length, height), p(0, height)];
}

const page = (degrees: number, n = 8, upsideDown?: number): LineVote[] =>
  Array.from({ length: n }, (_, i) => ({ quad: line(100 + 40 * i, 100 + 40 * i, degrees), upsideDown }));

test('a page whose lines run down, left or up is turned by one, two or three quarters', () => {
  assert.equal(pageTurn(page(0)), 0);
  assert.equal(pageTurn(page(90)), 1);
  assert.equal(pageTurn(page(180)), 2);
  assert.equal(pageTurn(page(270)), 3);
  // A slanted scan is still one turn, not two.
  assert.equal(pageTurn(page(97)), 1);
  assert.equal(pageTurn(page(-8)), 0);
});

test('a few lines, or no clear majority, leave the image as it is (a photo with turned signs)', () => {
  assert.equal(pageTurn(page(90, 5)), 0);
  assert.equal(pageTurn([...page(90, 4), ...page(0, 4)]), 0);
  assert.equal(pageTurn([...page(45, 8)]), 0);
});

test("the classifier's word turns a line's vote around when it is more likely upside down than not", () => {
  // Faded print: a line's answer is noisy, most are on the right side of even.
  assert.equal(pageTurn([...page(0, 6, 0.7), ...page(0, 2, 0.3)]), 2);
  assert.equal(pageTurn([...page(90, 6, 0.95), ...page(90, 3, 0.2)]), 3);
  assert.equal(pageTurn(page(0, 8, 0.4)), 0);
});

test('a point of the upright image maps back to the pixel it came from in the turned one', async () => {
  const width = 7;
  const height = 4;
  const rgb = new Uint8Array(width * height * 3);
  const marked = { x: 5, y: 1 };
  rgb.fill(255);
  rgb.fill(0, (marked.y * width + marked.x) * 3, (marked.y * width + marked.x) * 3 + 3);
  const image: DecodedImage = { width, height, rgb, format: 'png', scale: 1 };
  for (const turns of [0, 1, 2, 3] as QuarterTurns[]) {
    const upright = await turnImage(image, turns);
    assert.equal(upright.width * upright.height, width * height);
    const dark = upright.rgb.findIndex((v, i) => i % 3 === 0 && v === 0) / 3;
    // The dark pixel's centre in the upright image, back in the image as it came.
    const centre = unturnPoint({ x: (dark % upright.width) + 0.5, y: Math.floor(dark / upright.width) + 0.5 }, turns, image);
    assert.deepEqual(centre, { x: marked.x + 0.5, y: marked.y + 0.5 }, `turns ${turns}`);
  }
});
