import sharp from 'sharp';

/**
 * A bilevel scan: black lines of text, and between them a bar printed as a screen of 3-pixel squares
 * every 5 pixels with a white heading on it (what a scanner makes of a grey bar).
 */
export async function screenedPage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="400">
<defs><pattern id="screen" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="3" height="3" fill="black"/></pattern></defs>
<rect width="100%" height="100%" fill="white"/>
<text x="40" y="60" font-family="DejaVu Sans" font-size="30">Quarterly results of the northern division</text>
<rect x="30" y="96" width="1540" height="52" fill="url(#screen)"/>
<text x="40" y="133" font-family="DejaVu Sans" font-size="30" font-weight="bold" fill="white">Harbour Freight Holdings (HFH, Hold, target 41.50)</text>
<text x="40" y="210" font-family="DejaVu Sans" font-size="30">Revenue grew by a tenth over the year before.</text>
</svg>`;
  return sharp(Buffer.from(svg)).greyscale().threshold(128).png().toBuffer();
}
