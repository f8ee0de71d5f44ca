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
  // 0: not visited; 1: in the blob being flooded; 2: done.
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(Math.max(1, maxArea + 1));
  const blob: number[] = [];
  for (let start = 0; start < grey.length; start++) {
    if (seen[start] === 2 || grey[start] >= INK) continue;
    // Flood the blob, stopping (and keeping it) once it is larger than a speck.
    blob.length = 0;
    let top = 0;
    let large = false;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const p = stack[--top];
      blob.push(p);
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1 && !large; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (seen[q] || grey[q] >= INK) continue;
          seen[q] = 1;
          if (blob.length + top >= maxArea) {
            large = true;
            break;
          }
          stack[top++] = q;
        }
      }
      if (large) break;
    }
    if (large) {
      // The whole blob is done, so it is not flooded again from another of its pixels.
      markBlob(grey, seen, width, height, start);
      continue;
    }
    for (const p of blob) {
      out[p] = 255;
      seen[p] = 2;
    }
  }
  return out;
}

/** Marks every pixel of the ink blob holding `start` done (a plain flood, no size limit). */
function markBlob(grey: Uint8Array, seen: Uint8Array, width: number, height: number, start: number): void {
  const stack: number[] = [start];
  seen[start] = 2;
  while (stack.length > 0) {
    const p = stack.pop() as number;
    const x = p % width;
    const y = (p - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      const ny = y + dy;
      if (ny < 0 || ny >= height) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        if (nx < 0 || nx >= width) continue;
        const q = ny * width + nx;
        if (seen[q] === 2 || grey[q] >= INK) continue;
        seen[q] = 2;
        stack.push(q);
      }
    }
  }
}
