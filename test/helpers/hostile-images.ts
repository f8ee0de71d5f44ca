import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { bmpFile, iconDib, icoFile } from './bmp-bytes.ts';

/**
 * A corpus of hostile images, generated at run time (no committed binaries): decompression bombs in
 * every format we decode, headers that lie about sizes and offsets, truncated files, huge metadata,
 * and many frames, entries and pages. Each is small enough to send in one request.
 */
export interface HostileImage {
  name: string;
  bytes: Buffer;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, colorType = 0, depth = 8): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.set([depth, colorType, 0, 0, 0], 8);
  return chunk('IHDR', data);
}

/** A PNG whose IDAT inflates to `width × height` grey pixels of zero (about 1000:1). */
function pngBomb(width: number, height: number): Buffer {
  const idat = zlib.deflateSync(Buffer.alloc((width + 1) * height), { level: 9 });
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

function jpegHeaderOnly(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

/** A JPEG with `count` APPn/COM segments of 64 KB each inserted after SOI (metadata bloat). */
function withSegments(jpeg: Buffer, marker: number, count: number, fill: (i: number) => Buffer): Buffer {
  const segments = Array.from({ length: count }, (_, i) => {
    const payload = fill(i).subarray(0, 65533);
    const head = Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 255]);
    return Buffer.concat([head, payload]);
  });
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

function gifScreen(width: number, height: number, frame: Buffer): Buffer {
  const out = Buffer.from(frame);
  out.writeUInt16LE(width, 6);
  out.writeUInt16LE(height, 8);
  return out;
}

function tiffHeaderOnly(width: number, height: number, stripOffset: number): Buffer {
  // Little-endian TIFF, one IFD: width, height, bits 8, no compression, photometric 1, strip offset, 1 sample, rows per strip, strip byte count.
  const entries: Array<[number, number, number, number]> = [
    [256, 4, 1, width],
    [257, 4, 1, height],
    [258, 3, 1, 8],
    [259, 3, 1, 1],
    [262, 3, 1, 1],
    [273, 4, 1, stripOffset],
    [277, 3, 1, 1],
    [278, 4, 1, height],
    [279, 4, 1, width * height],
  ];
  const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
  ifd.writeUInt16LE(entries.length, 0);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 2 + i * 12;
    ifd.writeUInt16LE(tag, at);
    ifd.writeUInt16LE(type, at + 2);
    ifd.writeUInt32LE(count, at + 4);
    if (type === 3) ifd.writeUInt16LE(value, at + 8);
    else ifd.writeUInt32LE(value >>> 0, at + 8);
  });
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
  return Buffer.concat([header, ifd, Buffer.alloc(64)]);
}

/** An ISO-BMFF file: ftyp with `brand`, then random boxes. */
function isoBmff(brand: string, rest: Buffer): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftyp'),
    Buffer.from(brand),
    Buffer.alloc(4),
    Buffer.from('mif1'),
    Buffer.from(brand),
  ]);
  return Buffer.concat([ftyp, rest]);
}

const half = (b: Buffer) => b.subarray(0, Math.floor(b.length / 2));

export async function hostileImages(): Promise<HostileImage[]> {
  const text = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="80"><rect width="100%" height="100%" fill="white"/><text x="10" y="50" font-size="32">Hostile 42</text></svg>',
  );
  const small = await sharp(text).flatten({ background: '#fff' }).png().toBuffer();
  const jpeg = await sharp(small).jpeg().toBuffer();
  const gif = await sharp(small).gif().toBuffer();
  const webp = await sharp(small).webp().toBuffer();
  const avif = await sharp(small).avif().toBuffer();
  const tiff = await sharp(small).tiff().toBuffer();
  const blank = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const manyFrames = await sharp(
    Array.from({ length: 300 }, () => blank),
    { join: { animated: true } },
  )
    .gif()
    .toBuffer();
  const manyWebpFrames = await sharp(
    Array.from({ length: 300 }, () => blank),
    { join: { animated: true } },
  )
    .webp()
    .toBuffer();
  const manyPages = await sharp(
    Array.from({ length: 200 }, () => blank),
    { join: { animated: true } },
  )
    .tiff()
    .toBuffer()
    .catch(() => tiff);
  const tiffBomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#000' } })
    .greyscale()
    .tiff({ compression: 'deflate' })
    .toBuffer();
  const webpBig = await sharp({ create: { width: 16000, height: 4000, channels: 3, background: '#000' } })
    .webp({ lossless: true })
    .toBuffer();
  const gifBig = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#000' } })
    .gif()
    .toBuffer();
  const dib64 = iconDib({ width: 256, height: 256, bitCount: 32, pixel: () => [255, 255, 255] });
  const pngEntry = Buffer.concat([PNG_SIGNATURE, ihdr(20000, 20000, 2), chunk('IEND', Buffer.alloc(0))]);
  const rle = (() => {
    // RLE8, 8000 × 8000: each row is 32 runs of 250 pixels + end of line; ends with end of bitmap.
    const row = Buffer.concat([...Array.from({ length: 32 }, () => Buffer.from([250, 1])), Buffer.from([0, 0])]);
    const pixels = Buffer.concat([...Array.from({ length: 8000 }, () => row), Buffer.from([0, 1])]);
    const file = bmpFile({ width: 1, height: 1, bitCount: 8, pixel: () => [0, 0, 0] });
    const out = Buffer.concat([file.subarray(0, 14 + 40 + 1024), pixels]);
    out.writeInt32LE(8000, 18);
    out.writeInt32LE(8000, 22);
    out.writeUInt32LE(1, 30); // BI_RLE8
    out.writeUInt32LE(out.length, 2);
    return out;
  })();
  const coreAttack = (() => {
    const b = Buffer.alloc(136);
    b.write('BM', 0, 'latin1');
    b.writeUInt32LE(136, 2);
    b.writeUInt32LE(26, 10);
    b.writeUInt32LE(12, 14);
    b.writeUInt16LE(1, 18);
    b.writeUInt16LE(1, 20);
    b.writeUInt16LE(16000, 22);
    b.writeUInt16LE(24, 24);
    return b;
  })();
  const bigBmp = bmpFile({ width: 8, height: 8, bitCount: 1, pixel: () => [0, 0, 0] });
  bigBmp.writeInt32LE(16000, 18);
  bigBmp.writeInt32LE(-16000, 22);
  const paletteClaim = bmpFile({ width: 8, height: 8, bitCount: 8, pixel: () => [0, 0, 0] });
  paletteClaim.writeUInt32LE(0x7fffffff, 46);
  const negativeWidth = bmpFile({ width: 8, height: 8, pixel: () => [0, 0, 0] });
  negativeWidth.writeInt32LE(-8, 18);
  const icoOutside = icoFile([iconDib({ width: 16, height: 16, pixel: () => [0, 0, 0] })]);
  icoOutside.writeUInt32LE(0x7fffff00, 6 + 12);
  const exifBomb = withSegments(jpeg, 0xe1, 120, (i) =>
    Buffer.concat([Buffer.from('Exif\0\0II*\0'), crypto.randomBytes(8), Buffer.alloc(65000, i)]),
  );
  const comBomb = withSegments(jpeg, 0xfe, 100, () => Buffer.alloc(65000, 0x41));
  const zTxt = Buffer.concat([Buffer.from('Comment\0\0'), zlib.deflateSync(Buffer.alloc(50_000_000))]);
  const pngZtxt = Buffer.concat([small.subarray(0, 33), chunk('zTXt', zTxt), small.subarray(33)]);
  const iccp = Buffer.concat([Buffer.from('icc\0\0'), zlib.deflateSync(Buffer.alloc(50_000_000))]);
  const pngIccp = Buffer.concat([small.subarray(0, 33), chunk('iCCP', iccp), small.subarray(33)]);
  const badCrc = Buffer.from(small);
  badCrc[29] ^= 0xff;
  const loopTiff = tiffHeaderOnly(100, 100, 8);
  loopTiff.writeUInt32LE(8, 8 + 2 + 9 * 12); // the IFD's "next IFD" points at itself

  return [
    { name: 'png-header-20000x20000', bytes: Buffer.concat([PNG_SIGNATURE, ihdr(20000, 20000), chunk('IEND', Buffer.alloc(0))]) },
    { name: 'png-header-75000001px', bytes: Buffer.concat([PNG_SIGNATURE, ihdr(75_000_001, 1), chunk('IEND', Buffer.alloc(0))]) },
    { name: 'png-header-8000x8000-no-data', bytes: Buffer.concat([PNG_SIGNATURE, ihdr(8000, 8000), chunk('IEND', Buffer.alloc(0))]) },
    { name: 'png-bomb-8600x8600-zeros', bytes: pngBomb(8600, 8600) },
    { name: 'png-strip-70000x1', bytes: pngBomb(70000, 1) },
    { name: 'png-truncated', bytes: half(small) },
    { name: 'png-ztxt-50MB-inflated', bytes: pngZtxt },
    { name: 'png-iccp-50MB-inflated', bytes: pngIccp },
    { name: 'png-bad-crc', bytes: badCrc },
    { name: 'png-magic-random', bytes: Buffer.concat([PNG_SIGNATURE, crypto.randomBytes(4000)]) },
    { name: 'jpeg-header-65500x65500', bytes: jpegHeaderOnly(65500, 65500) },
    { name: 'jpeg-header-8000x9000', bytes: jpegHeaderOnly(8000, 9000) },
    { name: 'jpeg-truncated', bytes: half(jpeg) },
    { name: 'jpeg-exif-120x64KB', bytes: exifBomb },
    { name: 'jpeg-com-100x64KB', bytes: comBomb },
    { name: 'jpeg-random-after-soi', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), crypto.randomBytes(5000)]) },
    { name: 'gif-300-frames', bytes: manyFrames },
    { name: 'gif-screen-65535x65535', bytes: gifScreen(65535, 65535, gif) },
    { name: 'gif-8000x8000-lzw', bytes: gifBig },
    { name: 'gif-truncated', bytes: half(gif) },
    { name: 'webp-16000x4000-lossless', bytes: webpBig },
    { name: 'webp-300-frames', bytes: manyWebpFrames },
    { name: 'webp-truncated', bytes: half(webp) },
    {
      name: 'webp-riff-random',
      bytes: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0xff, 0xff, 0xff, 0x7f]), Buffer.from('WEBPVP8L'), crypto.randomBytes(3000)]),
    },
    { name: 'tiff-200-pages', bytes: manyPages },
    { name: 'tiff-deflate-8000x8000', bytes: tiffBomb },
    { name: 'tiff-header-100000x100000', bytes: tiffHeaderOnly(100000, 100000, 8) },
    { name: 'tiff-strip-outside-file', bytes: tiffHeaderOnly(100, 100, 0x7fffff00) },
    { name: 'tiff-ifd-loop', bytes: loopTiff },
    { name: 'tiff-truncated', bytes: half(tiff) },
    { name: 'bmp-core-header-136-bytes', bytes: coreAttack },
    { name: 'bmp-1bit-16000x16000-claim', bytes: bigBmp },
    { name: 'bmp-rle8-8000x8000', bytes: rle },
    { name: 'bmp-truncated', bytes: half(bmpFile({ width: 300, height: 200, pixel: () => [0, 0, 0] })) },
    { name: 'bmp-palette-2^31-colors', bytes: paletteClaim },
    { name: 'bmp-negative-width', bytes: negativeWidth },
    {
      name: 'bmp-v5-header',
      bytes: bmpFile({ width: 320, height: 80, headerSize: 124, gap: 30, pixel: (x, y) => ((x + y) % 7 ? [255, 255, 255] : [0, 0, 0]) }),
    },
    { name: 'ico-150-entries', bytes: icoFile([dib64], 150) },
    { name: 'ico-64-entries-one-bitmap', bytes: icoFile([dib64], 64) },
    { name: 'ico-entry-outside-file', bytes: icoOutside },
    { name: 'ico-png-entry-20000x20000', bytes: icoFile([pngEntry]) },
    { name: 'ico-zero-entries', bytes: icoFile([], 0) },
    { name: 'ico-truncated', bytes: icoFile([dib64]).subarray(0, 3000) },
    { name: 'avif-truncated', bytes: half(avif) },
    { name: 'avif-ftyp-random', bytes: isoBmff('avif', crypto.randomBytes(3000)) },
    { name: 'heic-ftyp-random', bytes: isoBmff('heic', crypto.randomBytes(3000)) },
    { name: 'heic-ftyp-only', bytes: isoBmff('heic', Buffer.alloc(0)) },
    { name: 'svg', bytes: text },
    { name: 'pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF') },
    { name: 'random-bytes', bytes: crypto.randomBytes(10000) },
  ];
}
