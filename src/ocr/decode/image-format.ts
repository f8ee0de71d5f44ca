import { readDibHeader } from './decode-bmp.ts';
import { OcrFailure } from '../engine/ocr-failure.ts';

/**
 * Image formats recognised by their magic bytes (never by name or declared MIME type), and the
 * pixel size read from the header alone, so oversized images are refused before any decoding.
 */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'tiff' | 'bmp' | 'ico' | 'heic' | 'avif';

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** ISO-BMFF brands (https://github.com/strukturag/libheif/blob/master/libheif/heif_brands.h). */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

function sniffIsoBmff(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
  const boxSize = Math.min(bytes.length, new DataView(bytes.buffer, bytes.byteOffset).getUint32(0));
  // The major brand, then the compatible brands after the minor version.
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
  if (brands.some((b) => AVIF_BRANDS.has(b))) return 'avif';
  if (brands.some((b) => HEIC_BRANDS.has(b) || b === 'mif1' || b === 'msf1')) return 'heic';
  return undefined;
}

/** The format of an encoded image from its first bytes, or `undefined` when it is none we read. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const b = bytes;
  if (b.length < 4) return undefined;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x89 && ascii(b, 1, 4) === 'PNG') return 'png';
  if (ascii(b, 0, 4) === 'GIF8') return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (
    (b[0] === 0x49 && b[1] === 0x49 && (b[2] === 0x2a || b[2] === 0x2b) && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && (b[3] === 0x2a || b[3] === 0x2b))
  )
    return 'tiff';
  if (b[0] === 0x42 && b[1] === 0x4d && b.length >= 26) return 'bmp';
  // ICO (type 1) and CUR (type 2) share the ICONDIR header.
  if (b[0] === 0 && b[1] === 0 && (b[2] === 1 || b[2] === 2) && b[3] === 0 && b.length >= 6) return 'ico';
  return sniffIsoBmff(b);
}

export interface HeaderSize {
  width: number;
  height: number;
}

/** A DIB header (the .bmp file's at 14): width and |height|, read as `decode-bmp.ts` reads them. */
export function bmpHeaderSize(bytes: Uint8Array, offset = 14): HeaderSize | undefined {
  const header = readDibHeader(bytes, offset);
  return header ? { width: header.width, height: header.height } : undefined;
}

/** IHDR, which the PNG specification requires to be the first chunk. */
export function pngHeaderSize(bytes: Uint8Array, offset: number): HeaderSize | undefined {
  if (bytes.length < offset + 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(offset + 16), height: view.getUint32(offset + 20) };
}

/** Real icons hold a handful of sizes; more entries than this is an attack on the decoder, not an icon. */
export const MAX_ICO_ENTRIES = 64;

export interface IcoEntry extends HeaderSize {
  /** Where the entry's PNG or DIB starts, and its byte length as the directory says (clipped to the file). */
  offset: number;
  length: number;
  isPng: boolean;
}

/**
 * The image of an ICO/CUR to read: the largest entry, by each entry's own header (a PNG entry's IHDR
 * or a BMP entry's info header; the directory's one-byte sizes cap at 256). Every entry is counted
 * (at most `MAX_ICO_ENTRIES`) and bounds-checked; only the chosen one will be decoded.
 * `undefined` when the directory or an entry header lies outside the bytes.
 */
export function icoLargestEntry(bytes: Uint8Array): IcoEntry | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 6) return undefined;
  const count = view.getUint16(4, true);
  if (count > MAX_ICO_ENTRIES) {
    throw new OcrFailure('IMAGE_TOO_LARGE', `The icon holds ${count} images; the limit is ${MAX_ICO_ENTRIES}.`);
  }
  let largest: IcoEntry | undefined;
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    if (entry + 16 > bytes.length) return undefined;
    const length = view.getUint32(entry + 8, true);
    const offset = view.getUint32(entry + 12, true);
    if (offset < 6 + count * 16 || offset + 8 > bytes.length) return undefined;
    const isPng = bytes[offset] === 0x89 && ascii(bytes, offset + 1, offset + 4) === 'PNG';
    const size = isPng ? pngHeaderSize(bytes, offset) : bmpHeaderSize(bytes, offset);
    if (size === undefined) return undefined;
    // A BMP entry's height counts the AND mask too.
    const actual = isPng ? size : { width: size.width, height: Math.floor(size.height / 2) };
    if (!largest || actual.width * actual.height > largest.width * largest.height) {
      largest = { ...actual, offset, length: Math.min(length, bytes.length - offset), isPng };
    }
  }
  return largest;
}

/** The size of the entry `icoLargestEntry` picks. */
export function icoHeaderSize(bytes: Uint8Array): HeaderSize | undefined {
  const entry = icoLargestEntry(bytes);
  return entry ? { width: entry.width, height: entry.height } : undefined;
}
