import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { decodeImage } from './decode-image.ts';
import { PAGE_MIN_PAPER, paperShare } from './paper-share.ts';

async function image(svgBody: string, width: number, height: number, background: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${svgBody}</svg>`;
  return decodeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
}

test('a page of print is mostly paper, a dark or colourful photo is not', async () => {
  const rows = Array.from(
    { length: 20 },
    (_, i) =>
      `<text x="40" y="${60 + i * 40}" font-family="Liberation Serif" font-size="28">Line ${i} of a printed page, black on white paper</text>`,
  ).join('');
  assert.ok(paperShare(await image(rows, 900, 900, 'white')) >= PAGE_MIN_PAPER);
  // A cream-coloured old page still counts as paper.
  assert.ok(paperShare(await image(rows, 900, 900, '#eee6d8')) >= PAGE_MIN_PAPER);
  assert.ok(paperShare(await image('<text x="40" y="200" font-size="80" fill="white">SALE</text>', 900, 600, '#2a5d8f')) < PAGE_MIN_PAPER);
  assert.ok(paperShare(await image('', 640, 480, '#303030')) < PAGE_MIN_PAPER);
});

test('tiny and degenerate images give a share in [0, 1]', async () => {
  for (const [w, h] of [
    [1, 1],
    [1, 500],
    [3000, 1],
  ]) {
    const share = paperShare(await image('', w, h, 'white'));
    assert.ok(share >= 0 && share <= 1, `${w}×${h}: ${share}`);
  }
  assert.equal(paperShare({ width: 0, height: 0, rgb: new Uint8Array(0), format: 'png', scale: 1 }), 0);
});
