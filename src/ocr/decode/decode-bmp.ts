import { OcrFailure } from '../engine/ocr-failure.ts';

/**
 * Our own BMP/DIB reader (replaces bmp-js, which read 32-bit sizes from a 12-byte core header while
 * the size check read 16-bit ones, and ignored the pixel-data offset). One header parser serves the
 * size check and the decoder, the pixel limit is checked before anything is allocated, and the pixel
 * data must be present in full (an uncompressed BMP cannot claim more pixels than its bytes hold).
 * Output: RGB, alpha (32-bit alpha, ICO AND mask) flattened on white, top row first.
 */
export interface DibHeader {
  width: number;
  height: number;
  /** Rows stored top row first (negative height). */
  topDown: boolean;
  bitCount: number;
  /** 0 BI_RGB, 1 RLE8, 2 RLE4, 3 BI_BITFIELDS, 6 BI_ALPHABITFIELDS. */
  compression: number;
  /** Bytes from the DIB header's start to the end of the header + masks, where the palette starts. */
  paletteOffset: number;
  paletteEntrySize: 3 | 4;
  paletteCount: number;
  masks?: { r: number; g: number; b: number; a: number };
}

export interface DecodedRgb {
  width: number;
  height: number;
  rgb: Uint8Array;
}

const BI_RGB = 0,
  BI_RLE8 = 1,
  BI_RLE4 = 2,
  BI_BITFIELDS = 3,
  BI_ALPHABITFIELDS = 6;
const FILE_HEADER = 14;

function corrupt(message: string): OcrFailure {
  return new OcrFailure('IMAGE_CORRUPT', `The BMP image could not be decoded: ${message}`);
}

/**
 * The DIB header at `offset` (14 in a .bmp file, the entry's start inside an ICO), read exactly as
 * `decodeDib` reads it. `undefined` when the bytes are too short to hold it.
 */
export function readDibHeader(bytes: Uint8Array, offset: number): DibHeader | undefined {
  if (offset + 16 > bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getUint32(offset, true);
  if (size === 12) {
    // BITMAPCOREHEADER: 16-bit unsigned sizes, 3-byte palette entries, no compression.
    const bitCount = view.getUint16(offset + 10, true);
    return {
      width: view.getUint16(offset + 4, true),
      height: view.getUint16(offset + 6, true),
      topDown: false,
      bitCount,
      compression: BI_RGB,
      paletteOffset: 12,
      paletteEntrySize: 3,
      paletteCount: bitCount <= 8 ? 1 << bitCount : 0,
    };
  }
  if (size < 40 || offset + Math.max(40, Math.min(size, 56)) > bytes.length) return undefined;
  const rawHeight = view.getInt32(offset + 8, true);
  const bitCount = view.getUint16(offset + 14, true);
  const compression = view.getUint32(offset + 16, true);
  const colorsUsed = view.getUint32(offset + 32, true);
  let paletteOffset = size;
  let masks: DibHeader['masks'];
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    // V2+ headers carry the masks inside; a 40-byte header is followed by them (3 or 4 dwords).
    const inside = size >= 52;
    const at = offset + 40;
    const withAlpha = compression === BI_ALPHABITFIELDS || size >= 56;
    if (!inside) paletteOffset = 40 + (compression === BI_ALPHABITFIELDS ? 16 : 12);
    if (offset + paletteOffset > bytes.length && !inside) return undefined;
    masks = {
      r: view.getUint32(at, true),
      g: view.getUint32(at + 4, true),
      b: view.getUint32(at + 8, true),
      a: withAlpha ? view.getUint32(at + 12, true) : 0,
    };
  }
  const maxColors = bitCount <= 8 ? 1 << bitCount : 0;
  return {
    width: view.getInt32(offset + 4, true),
    height: rawHeight === -2147483648 ? 2147483647 : Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bitCount,
    compression,
    paletteOffset,
    paletteEntrySize: 4,
    paletteCount: bitCount <= 8 ? (colorsUsed > 0 && colorsUsed < maxColors ? colorsUsed : maxColors) : 0,
    ...(masks ? { masks } : {}),
  };
}

/** Width and height of a .bmp file as `decodeBmp` will read them. */
export function bmpFileSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const header = readDibHeader(bytes, FILE_HEADER);
  return header ? { width: header.width, height: header.height } : undefined;
}

export interface DibLimits {
  maxPixels: number;
}

/** A .bmp file: file header, DIB header, palette, and pixels at the file header's offset. */
export function decodeBmp(bytes: Uint8Array, limits: DibLimits): DecodedRgb {
  if (bytes.length < FILE_HEADER + 16 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw corrupt('no BMP header');
  const header = readDibHeader(bytes, FILE_HEADER);
  if (!header) throw corrupt('the header is truncated');
  const pixelOffset = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(10, true);
  return decodeDib(bytes, FILE_HEADER, header, pixelOffset, limits, false);
}

/**
 * A DIB stored inside an ICO/CUR entry at `offset`: its height counts the XOR image and the AND mask,
 * the pixels follow the palette, and the AND mask (1 bit per pixel) follows the pixels.
 */
export function decodeIconDib(bytes: Uint8Array, offset: number, limits: DibLimits): DecodedRgb {
  const stored = readDibHeader(bytes, offset);
  if (!stored) throw corrupt('the icon entry header is truncated');
  const header = { ...stored, height: Math.floor(stored.height / 2) };
  const pixelOffset = offset + header.paletteOffset + header.paletteCount * header.paletteEntrySize;
  return decodeDib(bytes, offset, header, pixelOffset, limits, true);
}

function checkSize(header: DibHeader, limits: DibLimits): void {
  const { width, height } = header;
  if (width < 1 || height < 1) throw corrupt('no valid size in the header');
  if (width * height > limits.maxPixels) {
    throw new OcrFailure('IMAGE_TOO_LARGE', `The image is ${width}×${height} pixels; the limit is ${limits.maxPixels / 1e6} megapixels.`);
  }
}

/** Shift and width of a channel mask, so a value scales to 0..255. */
function maskShape(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

function decodeDib(
  bytes: Uint8Array,
  dibOffset: number,
  header: DibHeader,
  pixelOffset: number,
  limits: DibLimits,
  icon: boolean,
): DecodedRgb {
  checkSize(header, limits);
  const { width, height, bitCount, compression } = header;
  if (![1, 4, 8, 16, 24, 32].includes(bitCount)) throw corrupt(`unsupported bit depth ${bitCount}`);
  const rle = compression === BI_RLE8 || compression === BI_RLE4;
  if (![BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS].includes(compression) && !rle) throw corrupt(`unsupported compression ${compression}`);
  if ((compression === BI_RLE8 && bitCount !== 8) || (compression === BI_RLE4 && bitCount !== 4))
    throw corrupt('RLE compression with the wrong bit depth');
  if (rle && header.topDown) throw corrupt('a top-down bitmap cannot be RLE-compressed');

  const paletteStart = dibOffset + header.paletteOffset;
  const paletteEnd = paletteStart + header.paletteCount * header.paletteEntrySize;
  if (paletteEnd > bytes.length) throw corrupt('the palette is truncated');
  const palette = new Uint8Array(256 * 3); // BGR → RGB; missing entries stay black
  for (let i = 0; i < header.paletteCount; i++) {
    const at = paletteStart + i * header.paletteEntrySize;
    palette[i * 3] = bytes[at + 2];
    palette[i * 3 + 1] = bytes[at + 1];
    palette[i * 3 + 2] = bytes[at];
  }

  const stride = Math.ceil((width * bitCount) / 32) * 4;
  if (pixelOffset < dibOffset + 12) throw corrupt('the pixel data overlaps the header');
  // Every byte the decoder will read must be there: checked before the output is allocated.
  if (rle ? pixelOffset >= bytes.length : pixelOffset + stride * height > bytes.length) throw corrupt('the pixel data is truncated');

  const rgb = new Uint8Array(width * height * 3);
  if (rle) {
    // Pixels an RLE stream skips stay black (zero-filled).
    decodeRle(bytes, pixelOffset, header, palette, rgb);
    return { width, height, rgb };
  }

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const masks =
    header.masks ??
    (bitCount === 16
      ? { r: 0x7c00, g: 0x03e0, b: 0x001f, a: 0 }
      : bitCount === 32
        ? { r: 0xff0000, g: 0xff00, b: 0xff, a: icon ? 0xff000000 : 0 }
        : undefined);
  const shapes = masks ? [maskShape(masks.r), maskShape(masks.g), maskShape(masks.b), maskShape(masks.a)] : undefined;
  const andStart = pixelOffset + stride * height;
  // An icon's AND mask (1 = transparent) follows its pixels; 32-bit icons use their alpha instead.
  const andStride = Math.ceil(width / 32) * 4;
  const hasAndMask = icon && bitCount !== 32 && andStart + andStride * height <= bytes.length;

  for (let row = 0; row < height; row++) {
    const y = header.topDown ? row : height - 1 - row; // output row
    const src = pixelOffset + row * stride;
    let out = y * width * 3;
    for (let x = 0; x < width; x++, out += 3) {
      let r: number,
        g: number,
        b: number,
        a = 255;
      if (bitCount <= 8) {
        const bitPos = x * bitCount;
        const byte = bytes[src + (bitPos >> 3)];
        const index = (byte >> (8 - bitCount - (bitPos & 7))) & ((1 << bitCount) - 1);
        r = palette[index * 3];
        g = palette[index * 3 + 1];
        b = palette[index * 3 + 2];
      } else if (bitCount === 24) {
        const at = src + x * 3;
        b = bytes[at];
        g = bytes[at + 1];
        r = bytes[at + 2];
      } else {
        const value = bitCount === 16 ? view.getUint16(src + x * 2, true) : view.getUint32(src + x * 4, true);
        const [sr, sg, sb, sa] = shapes!;
        r = sr.max ? Math.round((((value >>> sr.shift) & sr.max) * 255) / sr.max) : 0;
        g = sg.max ? Math.round((((value >>> sg.shift) & sg.max) * 255) / sg.max) : 0;
        b = sb.max ? Math.round((((value >>> sb.shift) & sb.max) * 255) / sb.max) : 0;
        if (sa.max) a = Math.round((((value >>> sa.shift) & sa.max) * 255) / sa.max);
      }
      if (hasAndMask) {
        const maskByte = bytes[andStart + row * andStride + (x >> 3)];
        if ((maskByte >> (7 - (x & 7))) & 1) a = 0;
      }
      if (a !== 255) {
        // Flatten on white, as every other format is.
        r = Math.round((r * a + 255 * (255 - a)) / 255);
        g = Math.round((g * a + 255 * (255 - a)) / 255);
        b = Math.round((b * a + 255 * (255 - a)) / 255);
      }
      rgb[out] = r;
      rgb[out + 1] = g;
      rgb[out + 2] = b;
    }
  }
  return { width, height, rgb };
}

/** RLE8/RLE4 (bottom-up only). The stream is bounded by the output: writes outside it are dropped. */
function decodeRle(bytes: Uint8Array, start: number, header: DibHeader, palette: Uint8Array, rgb: Uint8Array): void {
  const { width, height } = header;
  const four = header.compression === BI_RLE4;
  let x = 0,
    row = 0,
    at = start;
  const put = (index: number) => {
    if (x < width && row < height) {
      const out = ((height - 1 - row) * width + x) * 3;
      rgb[out] = palette[index * 3];
      rgb[out + 1] = palette[index * 3 + 1];
      rgb[out + 2] = palette[index * 3 + 2];
    }
    x++;
  };
  while (at + 1 < bytes.length && row < height) {
    const count = bytes[at],
      value = bytes[at + 1];
    at += 2;
    if (count > 0) {
      // Encoded run: at most 255 pixels, clipped to the row.
      const n = Math.min(count, width - x);
      for (let i = 0; i < n; i++) put(four ? (i & 1 ? value & 15 : value >> 4) : value);
      x += count - n;
      continue;
    }
    if (value === 0) {
      x = 0;
      row++;
      continue;
    } // end of line
    if (value === 1) return; // end of bitmap
    if (value === 2) {
      // delta
      if (at + 1 >= bytes.length) return;
      x += bytes[at];
      row += bytes[at + 1];
      at += 2;
      continue;
    }
    // Absolute run of `value` pixels, padded to 16 bits.
    const byteCount = four ? Math.ceil(value / 2) : value;
    if (at + byteCount > bytes.length) return;
    for (let i = 0; i < value; i++) {
      if (x >= width) break;
      put(four ? (i & 1 ? bytes[at + (i >> 1)] & 15 : bytes[at + (i >> 1)] >> 4) : bytes[at + i]);
    }
    at += byteCount + (byteCount & 1);
  }
}
