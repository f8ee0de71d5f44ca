import sharp from 'sharp';
import decodeHeic from 'heic-decode';
import { decodeBmp, decodeIconDib } from './decode-bmp.ts';
import { icoLargestEntry, sniffImageFormat, type HeaderSize, type ImageFormat } from './image-format.ts';
import { headerSize } from './image-header.ts';
import { OcrFailure } from '../engine/ocr-failure.ts';

/** Google Vision's limits: 75 megapixels (checked from the header) and 20 MB of encoded bytes. */
export const MAX_IMAGE_PIXELS = 75_000_000;
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/**
 * Bigger images are decoded shrunk to about this many pixels (48 MB of RGB instead of up to 225 MB).
 * The detector never sees more than 2016 px a side and the recognizer scales every line to 48 px
 * tall, so a line that stays taller than that loses nothing: a 600-dpi A4 page (35 MP) keeps its
 * body text ~35 px tall. Boxes are scaled back to the original pixels (`DecodedImage.scale`).
 */
export const DECODE_MAX_PIXELS = 16_000_000;

/** Pixels as displayed (EXIF orientation applied), alpha flattened on white, 8-bit sRGB, 3 channels. */
export interface DecodedImage {
  readonly width: number;
  readonly height: number;
  /** Interleaved RGB, row-major, `width * height * 3` bytes. */
  readonly rgb: Uint8Array;
  readonly format: ImageFormat;
  /** Decoded pixels per original pixel: 1, or less when the image was shrunk (`DECODE_MAX_PIXELS`). */
  readonly scale: number;
}

interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3 | 4;
}

function corrupt(format: ImageFormat, cause: unknown): OcrFailure {
  const detail = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new OcrFailure('IMAGE_CORRUPT', `The ${format.toUpperCase()} image could not be decoded: ${detail}`, { cause });
}

/** Already RGB, flattened on white and upright: BMP and BMP icon entries come from our own reader. */
interface ReadyPixels {
  ready: { rgb: Uint8Array; width: number; height: number };
}

/** The largest entry of an ICO (the only one decoded); PNG entries go back through sharp. */
function icoLargest(bytes: Uint8Array): ReadyPixels | Uint8Array {
  const entry = icoLargestEntry(bytes);
  if (entry === undefined) throw new Error('the icon directory is truncated');
  if (entry.isPng) return bytes.subarray(entry.offset, entry.offset + entry.length);
  return { ready: decodeIconDib(bytes, entry.offset, { maxPixels: MAX_IMAGE_PIXELS }) };
}

async function heicPixels(bytes: Uint8Array): Promise<RawPixels> {
  const image = await decodeHeic({ buffer: bytes });
  return {
    data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    width: image.width,
    height: image.height,
    channels: 4,
  };
}

/** The decoded long side for an image of this size: its own, or less to stay within `DECODE_MAX_PIXELS`. */
function decodedLongSide(width: number, height: number): number {
  const long = Math.max(width, height);
  return width * height <= DECODE_MAX_PIXELS ? long : Math.floor(long * Math.sqrt(DECODE_MAX_PIXELS / (width * height)));
}

async function toRgb(input: Uint8Array | RawPixels, longSide: number): Promise<{ rgb: Uint8Array; width: number; height: number }> {
  const source =
    input instanceof Uint8Array
      ? // `pages: 1` = the first frame of an animated GIF/WebP or multi-page TIFF.
        sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated', pages: 1 })
      : sharp(input.data, { raw: { width: input.width, height: input.height, channels: input.channels } });
  const { data, info } = await source
    .rotate() // EXIF orientation: boxes are reported in the displayed orientation, like Google.
    // A square bound on the long side holds for either orientation; JPEG and WebP shrink while decoding.
    .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels after conversion`);
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/**
 * Encoded bytes → displayed RGB pixels. Refuses empty input, more than 20 MB, unknown formats and
 * more than 75 MP (read from the header, before any pixel is decoded).
 *
 * @example const image = await decodeImage(await fs.readFile('receipt.jpg'));
 */
export async function decodeImage(bytes: Uint8Array): Promise<DecodedImage> {
  if (bytes.byteLength === 0) throw new OcrFailure('IMAGE_EMPTY', 'The image is empty (0 bytes).');
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    throw new OcrFailure('IMAGE_TOO_LARGE', `The image is ${bytes.byteLength} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (20 MB).`);
  }
  const format = sniffImageFormat(bytes);
  if (format === undefined) {
    throw new OcrFailure(
      'IMAGE_UNSUPPORTED',
      'The bytes are not an image in a supported format (JPEG, PNG, GIF, BMP, WebP, TIFF, ICO, HEIC, AVIF).',
    );
  }
  let size: HeaderSize | undefined;
  try {
    size = await headerSize(bytes, format);
  } catch (cause) {
    if (cause instanceof OcrFailure) throw cause; // an ICO with too many entries
    throw corrupt(format, cause);
  }
  if (size === undefined || size.width < 1 || size.height < 1) throw corrupt(format, new Error('no valid size in the header'));
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new OcrFailure('IMAGE_TOO_LARGE', `The image is ${size.width}×${size.height} pixels; the limit is 75 megapixels.`);
  }
  try {
    const source =
      format === 'bmp'
        ? { ready: decodeBmp(bytes, { maxPixels: MAX_IMAGE_PIXELS }) }
        : format === 'ico'
          ? icoLargest(bytes)
          : format === 'heic'
            ? await heicPixels(bytes)
            : bytes;
    const longSide = decodedLongSide(size.width, size.height);
    const { rgb, width, height } =
      'ready' in source && Math.max(source.ready.width, source.ready.height) <= longSide
        ? source.ready
        : await toRgb('ready' in source ? { ...source.ready, data: source.ready.rgb, channels: 3 } : source, longSide);
    const long = Math.max(size.width, size.height);
    return { width, height, rgb, format, scale: longSide < long ? Math.max(width, height) / long : 1 };
  } catch (cause) {
    if (cause instanceof OcrFailure) throw cause;
    throw corrupt(format, cause);
  }
}
