import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bmpFile, iconDib, icoFile, type BmpSpec } from '../../../test/helpers/bmp-bytes.ts';
import { decodeImage } from './decode-image.ts';
import { OcrFailure } from '../engine/ocr-failure.ts';
import type { OcrFailureCode } from '../ocr-types.ts';

/** A small picture with distinct colours in every corner, a gradient and a diagonal. */
const picture = (x: number, y: number): [number, number, number] =>
  x === y ? [0, 0, 0] : [(x * 37) % 256, (y * 59) % 256, ((x + y) * 13) % 256];

async function decodesAs(
  bytes: Uint8Array,
  spec: Pick<BmpSpec, 'width' | 'height'>,
  expected: (x: number, y: number) => number[],
): Promise<void> {
  const img = await decodeImage(bytes);
  assert.deepEqual([img.width, img.height], [spec.width, spec.height]);
  for (let y = 0; y < spec.height; y++) {
    for (let x = 0; x < spec.width; x++) {
      const i = (y * spec.width + x) * 3;
      assert.deepEqual([img.rgb[i], img.rgb[i + 1], img.rgb[i + 2]], expected(x, y), `pixel ${x},${y}`);
    }
  }
}

async function rejects(bytes: Uint8Array, code: OcrFailureCode): Promise<void> {
  await assert.rejects(decodeImage(bytes), (err: unknown) => err instanceof OcrFailure && err.code === code);
}

test('a BMP with the 12-byte core header is read with 16-bit sizes, as its size is checked', async () => {
  // bmp-js read 32-bit sizes here (65537 × 1572865 for this 1×1 image), so it refused or exploded.
  const spec: BmpSpec = { width: 1, height: 1, headerSize: 12, pixel: () => [10, 200, 30] };
  await decodesAs(bmpFile(spec), spec, () => [10, 200, 30]);
  const spec2: BmpSpec = { width: 7, height: 5, headerSize: 12, bitCount: 8, pixel: (x, y) => ((x + y) % 2 ? [255, 255, 255] : [0, 0, 0]) };
  await decodesAs(bmpFile(spec2), spec2, (x, y) => ((x + y) % 2 ? [255, 255, 255] : [0, 0, 0]));
});

test('the 136-byte core-header BMP of the report is refused without allocating gigabytes', async () => {
  // Core header: 16-bit width/height 1×1, planes = 16000 (what a 32-bit reader takes for the height).
  const bytes = Buffer.alloc(136);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(136, 2);
  bytes.writeUInt32LE(26, 10);
  bytes.writeUInt32LE(12, 14);
  bytes.writeUInt16LE(1, 18);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(16000, 22);
  bytes.writeUInt16LE(0, 24); // bit count 0: not an image
  const before = process.memoryUsage().arrayBuffers;
  await rejects(bytes, 'IMAGE_CORRUPT');
  assert.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024);
});

test('a BMP with the 124-byte header is read from its pixel-data offset', async () => {
  for (const gap of [0, 66]) {
    const spec: BmpSpec = { width: 40, height: 12, headerSize: 124, gap, pixel: picture };
    await decodesAs(bmpFile(spec), spec, picture);
  }
  const v4: BmpSpec = { width: 9, height: 4, headerSize: 108, bitCount: 32, bitfields: true, pixel: picture };
  await decodesAs(bmpFile(v4), v4, picture);
});

test('every BMP depth and layout decodes to the same pixels', async () => {
  const bw = (x: number, y: number): [number, number, number] => ((x * 3 + y) % 5 < 2 ? [0, 0, 0] : [255, 255, 255]);
  const cases: Array<[BmpSpec, (x: number, y: number) => number[]]> = [
    [{ width: 13, height: 7, bitCount: 1, pixel: bw }, bw],
    [{ width: 13, height: 7, bitCount: 4, pixel: bw }, bw],
    [{ width: 13, height: 7, bitCount: 8, pixel: bw, gap: 3 }, bw],
    [{ width: 13, height: 7, bitCount: 24, pixel: picture, topDown: true }, picture],
    [{ width: 13, height: 7, bitCount: 32, pixel: picture }, picture],
    [{ width: 13, height: 7, bitCount: 16, pixel: bw }, bw],
    [{ width: 13, height: 7, bitCount: 16, bitfields: true, pixel: bw }, bw],
    [{ width: 13, height: 7, bitCount: 32, bitfields: true, pixel: picture, topDown: true }, picture],
  ];
  for (const [spec, expected] of cases) await decodesAs(bmpFile(spec), spec, expected);
});

test('a BMP whose pixel data is shorter than its header claims is corrupt, and a huge one too large', async () => {
  const full = bmpFile({ width: 300, height: 200, pixel: picture });
  await rejects(full.subarray(0, full.length - 1), 'IMAGE_CORRUPT');
  // 1-bit, 16000 × 16000 claimed in 200 bytes: refused before any allocation.
  const big = bmpFile({ width: 8, height: 8, bitCount: 1, pixel: () => [0, 0, 0] });
  big.writeInt32LE(16000, 18);
  big.writeInt32LE(-16000, 22);
  await rejects(big, 'IMAGE_TOO_LARGE');
  const wide = bmpFile({ width: 8, height: 8, bitCount: 1, pixel: () => [0, 0, 0] });
  wide.writeInt32LE(3000, 18);
  await rejects(wide, 'IMAGE_CORRUPT');
});

test('an ICO with more entries than any real icon is refused before any is decoded', async () => {
  // The report's attack: 150 directory entries naming one bitmap (each was decoded).
  const entry = iconDib({ width: 64, height: 64, bitCount: 32, pixel: picture });
  await rejects(icoFile([entry], 150), 'IMAGE_TOO_LARGE');
  // 64 entries naming the same bitmap: fine, and only the one chosen is read.
  await decodesAs(icoFile([entry], 64), { width: 64, height: 64 }, picture);
});

test('an ICO decodes its largest entry; BMP entries honour their AND mask', async () => {
  const small = iconDib({ width: 16, height: 16, bitCount: 24, pixel: () => [255, 0, 0] });
  const masked = (x: number, y: number) => x < 4 && y < 2;
  const large = iconDib({ width: 40, height: 24, bitCount: 24, pixel: picture }, masked);
  const expected = (x: number, y: number) => (masked(x, y) ? [255, 255, 255] : picture(x, y));
  await decodesAs(icoFile([small, large]), { width: 40, height: 24 }, expected);
  const eight = iconDib({ width: 20, height: 6, bitCount: 8, pixel: (x) => (x % 2 ? [0, 0, 0] : [255, 255, 255]) });
  await decodesAs(icoFile([eight]), { width: 20, height: 6 }, (x) => (x % 2 ? [0, 0, 0] : [255, 255, 255]));
});

test('an ICO entry pointing outside the file is corrupt', async () => {
  const ico = icoFile([iconDib({ width: 16, height: 16, pixel: picture })]);
  ico.writeUInt32LE(ico.length + 100, 6 + 12);
  await rejects(ico, 'IMAGE_CORRUPT');
  const truncated = icoFile([iconDib({ width: 64, height: 64, pixel: picture })]);
  await rejects(truncated.subarray(0, 200), 'IMAGE_CORRUPT');
});
