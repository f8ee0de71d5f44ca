import { rotateQuad } from '../geometry.ts';
import type { Quad } from '../ocr-types.ts';
import type { LineReading } from './recognizer.ts';

/**
 * The classifier's 180° turns, checked by the recognizer: each line it turned is read the other way
 * up too, and the likelier reading (the recognizer's confidence) decides. The direction classifier
 * calls slanted logos and italic signs upside down with confidence ("PHARMACY" on a shop front), and a
 * line read upside down comes back as nothing or as low-confidence noise; a line that really is upside
 * down reads far better turned. Only the turned lines are read twice, so upright pages cost nothing.
 *
 * @example const settled = await settleFlips(quads, readings, oriented.flipped, (q) => recognizer.recognize(image, q, options));
 */
export async function settleFlips(
  quads: readonly Quad[],
  readings: readonly LineReading[],
  flipped: readonly number[],
  read: (quads: readonly Quad[]) => Promise<LineReading[]>,
): Promise<{ quads: Quad[]; readings: LineReading[] }> {
  const out = { quads: [...quads], readings: [...readings] };
  if (flipped.length === 0) return out;
  const unturned = flipped.map((i) => rotateQuad(quads[i], 2));
  const again = await read(unturned);
  flipped.forEach((i, k) => {
    if (again[k].confidence <= readings[i].confidence) return;
    out.quads[i] = unturned[k];
    out.readings[i] = again[k];
  });
  return out;
}
