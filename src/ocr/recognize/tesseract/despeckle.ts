/**
 * Ink darker than this (0–255) is ink for finding specks; a speck is whited out to the paper's grey.
 * A fixed level suits the scans it is for: bilevel and grey newspaper scans with white-ish paper.
 */
const INK = 128;

/**
 * Specks whited out of a grey page before Tesseract reads it: 8-connected blobs of ink of at most `maxArea`
 * pixels. Old newspaper scans are strewn with dust and with the dots a bilevel scan makes of the other side's
 * print, which Tesseract reads as full stops and commas between words ("zur. Zeit"); a median filter removes
 * them too, but also the hairlines of black letter. Letters, and stops as large as `maxArea`, are left as
 * they are. Returns a new buffer; the input is not changed.
 *
 * @example const clean = despeckle(grey, width, height, 12);
 */
export function despeckle(grey: Uint8Array, width: number, height: number, maxArea: number): Uint8Array {
  const out = new Uint8Array(grey);
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  // A blob's first `maxArea + 1` pixels: enough to white out a speck and to know a blob is larger.
  const blob: number[] = [];
  for (let start = 0; start < grey.length; start++) {
    if (seen[start] || grey[start] >= INK) continue;
    blob.length = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop() as number;
      if (blob.length <= maxArea) blob.push(p);
      const x = p % width;
      const y = (p - x) / width;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const q = ny * width + nx;
          if (seen[q] || grey[q] >= INK) continue;
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    if (blob.length <= maxArea) for (const p of blob) out[p] = 255;
  }
  return out;
}
