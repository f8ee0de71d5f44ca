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

test('an upright rectangle (the separable path) crops as the general warp does', (t: TestContext) => {
  let seed = 7;
  const noise = image(120, 50, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % 256;
  });
  const upright: Quad = [
    { x: 10.3, y: 5.6 },
    { x: 101.7, y: 5.6 },
    { x: 101.7, y: 31.2 },
    { x: 10.3, y: 31.2 },
  ];
  // Read upside down: corner 0 at the bottom right.
  const turned: Quad = [upright[2], upright[3], upright[0], upright[1]];
  for (const quad of [upright, turned]) {
    // A tilt far below a pixel sends the same rectangle through the general loop.
    const tilted = quad.map((p, i) => (i === 1 ? { x: p.x, y: p.y + 1e-9 } : p)) as unknown as Quad;
    for (const [w, h] of [
      [300, 48], // enlarged: cubic
      [80, 20], // shrunk: bilinear
      [30, 8], // shrunk 3×: supersampled, always the general loop
    ]) {
      const a = cropLine(noise, quad, w, h).rgb;
      const b = cropLine(noise, tilted, w, h).rgb;
      const worst = a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
      t.assert.ok(worst <= 1, `${w}×${h}: largest difference ${worst}`);
    }
  }
});
