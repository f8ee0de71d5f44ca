import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { fixture } from '../../../test/fixtures/images/fixtures.ts';
import { DECODE_MAX_PIXELS, decodeImage, MAX_IMAGE_BYTES, type DecodedImage } from './decode-image.ts';
import { OcrFailure } from '../engine/ocr-failure.ts';
import type { OcrFailureCode } from '../ocr-types.ts';

/** Darkest pixel of a region: text is black. */
function minLuma(img: DecodedImage, x0: number, y0: number, x1: number, y1: number): number {
  let min = 255;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 3;
      min = Math.min(min, (img.rgb[i] + img.rgb[i + 1] + img.rgb[i + 2]) / 3);
    }
  return min;
}

/** Mean brightness of a region: text is dark, paper white. */
function meanLuma(img: DecodedImage, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0,
    n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 3;
      sum += (img.rgb[i] + img.rgb[i + 1] + img.rgb[i + 2]) / 3;
      n++;
    }
  return sum / n;
}

async function rejects(bytes: Uint8Array, code: OcrFailureCode): Promise<void> {
  await assert.rejects(decodeImage(bytes), (err: unknown) => err instanceof OcrFailure && err.code === code);
}

test('every format decodes to 8-bit RGB of the displayed size', async () => {
  for (const name of ['line.png', 'line.webp', 'line.tiff', 'line.avif', 'line.bmp', 'line-animated.gif', 'line-alpha.png']) {
    const img = await decodeImage(fixture(name));
    assert.equal(img.width, 360, name);
    assert.equal(img.height, 64, name);
    assert.equal(img.rgb.length, 360 * 64 * 3, name);
    // Text on the left, white paper on the right, whatever the format (alpha flattened on white).
    assert.ok(meanLuma(img, 300, 0, 360, 64) > 245, `${name}: paper is white`);
    assert.ok(minLuma(img, 16, 16, 200, 48) < 80, `${name}: text is dark`);
  }
  const ico = await decodeImage(fixture('line.ico'));
  assert.deepEqual([ico.width, ico.height, ico.format], [256, 64, 'ico']);
});

test('EXIF orientation is applied: pixels come out as displayed', async () => {
  const img = await decodeImage(fixture('page-exif6.jpg'));
  assert.deepEqual([img.width, img.height], [640, 360]);
  const upright = await decodeImage(fixture('page.png'));
  // The first text line is at the top left in both.
  assert.ok(Math.abs(meanLuma(img, 30, 20, 300, 50) - meanLuma(upright, 30, 20, 300, 50)) < 12);
});

test('CMYK, 16-bit and greyscale become 8-bit sRGB', async () => {
  const reference = await decodeImage(fixture('page.png'));
  for (const name of ['page-cmyk.jpg', 'page-16bit.png', 'page-grey.png']) {
    const img = await decodeImage(fixture(name));
    assert.deepEqual([img.width, img.height, img.rgb.length], [640, 360, 640 * 360 * 3], name);
    assert.ok(Math.abs(meanLuma(img, 0, 0, 640, 360) - meanLuma(reference, 0, 0, 640, 360)) < 6, name);
  }
});

test('the first frame of an animated GIF is read', async () => {
  const img = await decodeImage(fixture('line-animated.gif'));
  assert.equal(img.height, 64); // one frame, not the stack of two
  assert.ok(minLuma(img, 16, 16, 200, 48) < 80); // the first frame has the text; the second is blank
});

test('empty, oversized and unknown inputs are refused with typed codes', async () => {
  await rejects(new Uint8Array(0), 'IMAGE_EMPTY');
  await rejects(new Uint8Array(MAX_IMAGE_BYTES + 1), 'IMAGE_TOO_LARGE');
  await rejects(new Uint8Array(crypto.randomBytes(4096)), 'IMAGE_UNSUPPORTED');
  await rejects(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'IMAGE_UNSUPPORTED');
  await rejects(new TextEncoder().encode('%PDF-1.4\n'), 'IMAGE_UNSUPPORTED');
});

test('truncated and garbled images fail as corrupt, not as crashes', async () => {
  const jpeg = fixture('page-cmyk.jpg');
  const png = fixture('page.png');
  await rejects(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'IMAGE_CORRUPT');
  await rejects(png.subarray(0, Math.floor(png.length / 2)), 'IMAGE_CORRUPT');
  await rejects(png.subarray(0, 30), 'IMAGE_CORRUPT');
  await rejects(new Uint8Array([0xff, 0xd8, 0xff, ...crypto.randomBytes(2000)]), 'IMAGE_CORRUPT');
  await rejects(fixture('line.bmp').subarray(0, 2000), 'IMAGE_CORRUPT');
  await rejects(fixture('line.ico').subarray(0, 40), 'IMAGE_CORRUPT');
  // An ISO-BMFF HEIC header with nothing decodable behind it.
  const heic = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypheic'),
    Buffer.alloc(4),
    Buffer.from('mif1heic'),
    crypto.randomBytes(200),
  ]);
  await rejects(new Uint8Array(heic), 'IMAGE_CORRUPT');
});

/** A PNG whose header claims `width × height` pixels but holds no pixel data at all. */
function pngHeaderOnly(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IEND', Buffer.alloc(0))]));
}

test('more than 75 megapixels is refused from the header, before decoding', async () => {
  await rejects(pngHeaderOnly(20000, 20000), 'IMAGE_TOO_LARGE');
  // A BMP header claiming 100000 × 100000.
  const bmp = Buffer.from(fixture('line.bmp'));
  bmp.writeInt32LE(100000, 18);
  bmp.writeInt32LE(100000, 22);
  await rejects(new Uint8Array(bmp), 'IMAGE_TOO_LARGE');
  // Just under the limit in the header, but with no pixels: corrupt, quickly.
  await rejects(pngHeaderOnly(8000, 8000), 'IMAGE_CORRUPT');
});

test('a 1×1 image decodes', async () => {
  const one = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const img = await decodeImage(new Uint8Array(one));
  assert.deepEqual([img.width, img.height, [...img.rgb]], [1, 1, [0, 0, 0]]);
});

test('an image above DECODE_MAX_PIXELS is decoded shrunk, with the scale to its original pixels', async () => {
  // 6000×4000 (24 MP), EXIF-rotated to 4000×6000 as displayed, with a black square at the displayed top left.
  const square = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const bytes = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#fff' } })
    .composite([{ input: square, left: 0, top: 3400 }])
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  const img = await decodeImage(new Uint8Array(bytes));
  assert.ok(img.width * img.height <= DECODE_MAX_PIXELS, `${img.width}×${img.height}`);
  assert.ok(img.height > img.width, 'displayed upright');
  assert.ok(Math.abs(img.scale - img.height / 6000) < 1e-9);
  assert.ok(Math.abs(img.width / img.scale - 4000) < 1.5);
  // Rotated 90° clockwise, the square at the bottom left is now at the top left.
  const side = Math.floor(500 * img.scale);
  assert.ok(meanLuma(img, 0, 0, side, side) < 40);
  assert.ok(meanLuma(img, img.width - side, img.height - side, img.width, img.height) > 215);
  // Small images are decoded at their own size.
  assert.equal((await decodeImage(fixture('page.png'))).scale, 1);
});
