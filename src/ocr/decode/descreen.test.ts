import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { decodeImage, type DecodedImage } from './decode-image.ts';
import { descreen } from './descreen.ts';
import { screenedPage } from '../../../test/helpers/screened-page.ts';
import type { Quad } from '../ocr-types.ts';

/** Standard deviation of the grey levels of rows `y0`–`y1`, columns `x0`–`x1`. */
function spread(image: DecodedImage, x0: number, x1: number, y0: number, y1: number): number {
  const values: number[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) values.push(image.rgb[(y * image.width + x) * 3]);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
}

test('a page without a screen comes back as it was', async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300"><rect width="100%" height="100%" fill="white"/>
<text x="40" y="80" font-family="DejaVu Sans" font-size="28">Minutes of the meeting held on the third of May</text>
<text x="40" y="130" font-family="DejaVu Sans" font-size="12">small print: iiii llll mmmm wwww |||| ==== 1111 (c) all rights reserved</text>
<text x="40" y="200" font-family="DejaVu Sans" font-size="40" font-weight="bold">EEEE ≡≡≡≡ IIIII mmmmm</text></svg>`;
  const image = await decodeImage(await sharp(Buffer.from(svg)).greyscale().threshold(128).png().toBuffer());
  assert.equal(descreen(image).image, image);
});

test('random noise is not a screen: it does not repeat', async () => {
  const rgb = new Uint8Array(640 * 480 * 3);
  let seed = 7;
  for (let i = 0; i < rgb.length; i += 3) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    rgb.fill(seed % 2 === 0 ? 0 : 255, i, i + 3);
  }
  const image: DecodedImage = { width: 640, height: 480, rgb, format: 'png', scale: 1 };
  assert.equal(descreen(image).image, image);
});

test('a screened bar is averaged to flat grey; the text around it is untouched', async () => {
  const image = await decodeImage(await screenedPage());
  const { image: out, original, onScreen } = descreen(image);
  assert.equal(original, image);
  assert.notEqual(out, image);
  const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
  assert.ok(onScreen(quad(40, 105, 900, 140)), 'the heading is on the screen');
  assert.ok(!onScreen(quad(40, 180, 900, 215)), 'the line under it is not');
  // Right of the heading the bar is only screen: it goes from black and white dots to near-flat grey.
  assert.ok(spread(image, 1100, 1500, 100, 144) > 100, `screen before: ${spread(image, 1100, 1500, 100, 144)}`);
  assert.ok(spread(out, 1100, 1500, 100, 144) < 20, `screen after: ${spread(out, 1100, 1500, 100, 144)}`);
  // The first line of text (rows 0–63, above the bar's tiles) is byte for byte as it was.
  const row = image.width * 3;
  assert.deepEqual(out.rgb.subarray(0, 64 * row), image.rgb.subarray(0, 64 * row));
});
