import { test, type TestContext } from 'node:test';
import type { DecodedImage } from '../decode/decode-image.ts';
import type { Quad } from '../ocr-types.ts';
import { cropLine } from './crop-line.ts';

/** A grey image from a function of the pixel position. */
function image(width: number, height: number, grey: (x: number, y: number) => number): DecodedImage {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.fill(grey(x, y), (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { width, height, rgb, format: 'png', scale: 1 };
}
const whole = (w: number, h: number): Quad => [
  { x: 0, y: 0 },
  { x: w, y: 0 },
  { x: w, y: h },
  { x: 0, y: h },
];
const row = (crop: { width: number; rgb: Uint8Array }, y: number) =>
  Array.from({ length: crop.width }, (_, x) => crop.rgb[(y * crop.width + x) * 3]);

test('an enlarged crop of a black-to-white edge rises steadily: the cubic overshoot is clamped, not wrapped', (t: TestContext) => {
  const edge = image(8, 4, (x) => (x < 4 ? 0 : 255));
  const crop = cropLine(edge, whole(8, 4), 64, 32);
  const profile = row(crop, 16);
  t.assert.ok(
    profile.every((v, i) => i === 0 || v >= profile[i - 1]),
    profile.join(' '),
  );
  t.assert.equal(profile[0], 0);
  t.assert.equal(profile.at(-1), 255);
});

test('an enlarged one-pixel stroke keeps its full darkness; a shrunk crop averages', (t: TestContext) => {
  const stroke = image(9, 4, (x) => (x === 4 ? 0 : 255));
  const up = row(cropLine(stroke, whole(9, 4), 72, 32), 16);
  t.assert.ok(Math.min(...up) <= 8, `darkest ${Math.min(...up)}`);
  const flat = image(40, 40, (x, y) => ((x + y) % 2 === 0 ? 0 : 255));
  const down = cropLine(flat, whole(40, 40), 10, 10);
  t.assert.ok(
    row(down, 5).every((v) => v > 100 && v < 155),
    row(down, 5).join(' '),
  );
});
