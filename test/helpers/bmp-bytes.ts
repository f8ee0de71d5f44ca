/**
 * BMP and ICO bytes written field by field, for decoder tests and the hostile-image corpus: every
 * header variant the decoder must read, and headers that lie.
 */
export interface BmpSpec {
  width: number;
  height: number;
  /** Pixel (x, y) → [r, g, b, a]; y = 0 is the top row. */
  pixel: (x: number, y: number) => [number, number, number, number?];
  bitCount?: 1 | 4 | 8 | 16 | 24 | 32;
  /** 12 (core), 40 (info), 108 (v4) or 124 (v5). */
  headerSize?: 12 | 40 | 108 | 124;
  topDown?: boolean;
  /** Palette for 1/4/8-bit images (RGB); pixels are matched to the nearest entry. */
  palette?: Array<[number, number, number]>;
  /** Bytes left unused between the palette and the pixels (honoured only through bfOffBits). */
  gap?: number;
  /** 16-bit as 5-6-5 BI_BITFIELDS (else 5-5-5 BI_RGB); 32-bit with an alpha mask (v4+ headers). */
  bitfields?: boolean;
}

function nearest(palette: Array<[number, number, number]>, [r, g, b]: number[]): number {
  let best = 0,
    bestDistance = Infinity;
  palette.forEach(([pr, pg, pb], i) => {
    const d = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2;
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  return best;
}

/** A DIB: header (+ masks for a 40-byte BITFIELDS header), palette and pixel rows. */
export function dibBytes(
  spec: BmpSpec,
  opts: { icon?: boolean; andMask?: (x: number, y: number) => boolean } = {},
): { header: Buffer; palette: Buffer; pixels: Buffer } {
  const { width, height } = spec;
  const bitCount = spec.bitCount ?? 24;
  const headerSize = spec.headerSize ?? 40;
  const palette =
    bitCount <= 8
      ? (spec.palette ??
        Array.from({ length: 1 << bitCount }, (_, i) => {
          const v = Math.round((i * 255) / ((1 << bitCount) - 1));
          return [v, v, v] as [number, number, number];
        }))
      : [];
  const compression = spec.bitfields ? 3 : 0;
  const storedHeight = (spec.topDown ? -height : height) * (opts.icon ? 2 : 1);
  const header = Buffer.alloc(headerSize + (headerSize === 40 && spec.bitfields ? 12 : 0));
  header.writeUInt32LE(headerSize, 0);
  if (headerSize === 12) {
    header.writeUInt16LE(width, 4);
    header.writeUInt16LE(storedHeight, 6);
    header.writeUInt16LE(1, 8);
    header.writeUInt16LE(bitCount, 10);
  } else {
    header.writeInt32LE(width, 4);
    header.writeInt32LE(storedHeight, 8);
    header.writeUInt16LE(1, 12);
    header.writeUInt16LE(bitCount, 14);
    header.writeUInt32LE(compression, 16);
    header.writeUInt32LE(palette.length, 32);
    if (spec.bitfields) {
      const masks = bitCount === 16 ? [0xf800, 0x07e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
      masks.forEach((m, i) => {
        if (40 + i * 4 + 4 <= header.length) header.writeUInt32LE(m >>> 0, 40 + i * 4);
      });
    }
  }
  const entry = headerSize === 12 ? 3 : 4;
  const paletteBytes = Buffer.alloc(palette.length * entry);
  palette.forEach(([r, g, b], i) => {
    paletteBytes[i * entry] = b;
    paletteBytes[i * entry + 1] = g;
    paletteBytes[i * entry + 2] = r;
  });
  const stride = Math.ceil((width * bitCount) / 32) * 4;
  const andStride = Math.ceil(width / 32) * 4;
  const pixels = Buffer.alloc(stride * height + (opts.andMask ? andStride * height : 0));
  for (let row = 0; row < height; row++) {
    const y = spec.topDown ? row : height - 1 - row;
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = spec.pixel(x, y);
      const at = row * stride;
      if (bitCount <= 8) {
        const index = nearest(palette, [r, g, b]);
        const bit = x * bitCount;
        pixels[at + (bit >> 3)] |= index << (8 - bitCount - (bit & 7));
      } else if (bitCount === 16) {
        pixels.writeUInt16LE(
          spec.bitfields ? ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3) : ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3),
          at + x * 2,
        );
      } else {
        const o = at + x * (bitCount / 8);
        pixels[o] = b;
        pixels[o + 1] = g;
        pixels[o + 2] = r;
        if (bitCount === 32) pixels[o + 3] = a;
      }
      if (opts.andMask?.(x, y)) pixels[stride * height + row * andStride + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return { header, palette: paletteBytes, pixels };
}

/** A .bmp file; bfOffBits points past `gap` unused bytes, as some writers leave. */
export function bmpFile(spec: BmpSpec): Buffer {
  const { header, palette, pixels } = dibBytes(spec);
  const gap = Buffer.alloc(spec.gap ?? 0, 0xaa);
  const file = Buffer.alloc(14);
  const offset = 14 + header.length + palette.length + gap.length;
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(offset + pixels.length, 2);
  file.writeUInt32LE(offset, 10);
  return Buffer.concat([file, header, palette, gap, pixels]);
}

/** An ICO whose directory lists `entries` images (each a PNG or a DIB), or `count` entries naming the same bytes. */
export function icoFile(images: Buffer[], count = images.length): Buffer {
  const directory = Buffer.alloc(6 + count * 16);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(count, 4);
  let offset = directory.length;
  const offsets = images.map((image) => {
    const at = offset;
    offset += image.length;
    return at;
  });
  for (let i = 0; i < count; i++) {
    const image = images[i % images.length];
    const e = 6 + i * 16;
    directory.writeUInt16LE(1, e + 4);
    directory.writeUInt16LE(32, e + 6);
    directory.writeUInt32LE(image.length, e + 8);
    directory.writeUInt32LE(offsets[i % images.length], e + 12);
  }
  return Buffer.concat([directory, ...images]);
}

/** An ICO BMP entry: the DIB with its height doubled and an AND mask after the pixels. */
export function iconDib(spec: BmpSpec, andMask: (x: number, y: number) => boolean = () => false): Buffer {
  const { header, palette, pixels } = dibBytes(spec, { icon: true, andMask });
  return Buffer.concat([header, palette, pixels]);
}
