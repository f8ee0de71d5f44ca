import sharp from 'sharp';

/**
 * A Vietnamese sign line lit unevenly: grey letters on white at the left, black letters on dark grey at the
 * right, so no one grey level parts them all (Tesseract's tiled threshold reads it, its global one loses it).
 * Raw pixels, `channels` per pixel (3: RGB, 1: grey).
 */
export async function unevenlyLitSign(channels: 1 | 3): Promise<{ width: number; height: number; pixels: Uint8Array }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="80"><defs>
    <linearGradient id="bg"><stop offset="0" stop-color="#f8f8f8"/><stop offset="1" stop-color="#505050"/></linearGradient>
    <linearGradient id="fg"><stop offset="0" stop-color="#b0b0b0"/><stop offset="1" stop-color="#181818"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <text x="20" y="56" font-family="DejaVu Sans" font-size="40" fill="url(#fg)">PHÒNG KHÁM ĐA KHOA</text></svg>`;
  const image = sharp(Buffer.from(svg)).removeAlpha();
  const { data, info } = await (channels === 1 ? image.greyscale() : image).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: new Uint8Array(data) };
}
