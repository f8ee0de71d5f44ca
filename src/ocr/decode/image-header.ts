import sharp from 'sharp';
import { bmpHeaderSize, icoHeaderSize, pngHeaderSize, sniffImageFormat, type HeaderSize, type ImageFormat } from './image-format.ts';

/** An encoded image's size from its header, read the way its decoder will read it. */
export async function headerSize(bytes: Uint8Array, format: ImageFormat): Promise<HeaderSize | undefined> {
  if (format === 'bmp') return bmpHeaderSize(bytes);
  if (format === 'ico') return icoHeaderSize(bytes);
  // Read directly: libspng refuses a header-only file as corrupt before telling its size.
  if (format === 'png') return pngHeaderSize(bytes, 0);
  const meta = await sharp(bytes, { failOn: 'none' }).metadata();
  return meta.width && meta.height ? { width: meta.width, height: meta.height } : undefined;
}

/**
 * The pixels an encoded image will decode to, from its header alone (0 when it has none we read):
 * the engine weighs images by it before one reaches a worker.
 */
export async function headerPixels(bytes: Uint8Array): Promise<number> {
  const format = sniffImageFormat(bytes);
  if (format === undefined) return 0;
  try {
    const size = await headerSize(bytes, format);
    return size ? size.width * size.height : 0;
  } catch {
    return 0;
  }
}
