import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import type { Quad } from '../ocr-types.ts';
import type { LineCrop } from './crop-line.ts';
import { strokeLean, unleanQuad } from './stroke-lean.ts';

/** A line of bold print sheared by `lean` columns per row (sharp's affine: x' = x + lean · y), as a crop. */
async function leaningLine(text: string, lean: number): Promise<LineCrop> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 30 + 40}" height="56">
    <rect width="100%" height="100%" fill="white"/>
    <text x="20" y="44" font-family="DejaVu Sans" font-weight="bold" font-size="40">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .affine([1, lean, 0, 1], { background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data) };
}

test('the lean of a line is the shear that stands its strokes upright', async () => {
  for (const lean of [-0.4, -0.25, 0.3]) {
    const found = strokeLean(await leaningLine('HK 417 MN', lean));
    assert.ok(Math.abs(found.lean - lean) <= 0.05, `${lean}: found ${found.lean}`);
    assert.ok(found.gain > 1.01, `${lean}: gain ${found.gain}`);
  }
  assert.deepEqual(strokeLean(await leaningLine('HK 417 MN', 0)), { lean: 0, gain: 1 });
});

test('a blank crop has no lean', () => {
  assert.deepEqual(strokeLean({ width: 40, height: 20, rgb: new Uint8Array(40 * 20 * 3).fill(255) }), { lean: 0, gain: 1 });
});

test('undoing a lean moves the top edge back and the bottom edge on, and grows both ends', () => {
  const quad: Quad = [
    { x: 100, y: 50 },
    { x: 300, y: 50 },
    { x: 300, y: 90 },
    { x: 100, y: 90 },
  ];
  // Height 40, lean 0.25: the edges move by 5 px each way, the ends grow by 5 px.
  assert.deepEqual(unleanQuad(quad, 0.25), [
    { x: 90, y: 50 },
    { x: 300, y: 50 },
    { x: 310, y: 90 },
    { x: 100, y: 90 },
  ]);
  assert.deepEqual(unleanQuad(quad, 0), quad);
});
