import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Legible's shared data (Google's sample images, protos, ocr-dev): `LEGIBLE_SHARED_DIR`, or `../shared`
 * next to the repository. Tests that need it say where they looked when it is missing; with
 * `LEGIBLE_REQUIRE_SHARED=1` (CI) a missing folder fails the test instead of skipping it.
 */
export const SHARED_DIR = path.resolve(process.env.LEGIBLE_SHARED_DIR ?? path.join(ROOT, '../shared'));

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

/** A skip reason naming the missing path and the variable to set, or false when it is there. */
export function sharedMissing(...parts: string[]): string | false {
  const wanted = sharedPath(...parts);
  if (fs.existsSync(wanted)) return false;
  const message = `needs ${wanted}: set LEGIBLE_SHARED_DIR to the folder holding Legible's shared data (data/, protos/; default ../shared next to the repository)`;
  if (process.env.LEGIBLE_REQUIRE_SHARED === '1') throw new Error(message);
  process.stderr.write(`warning: skipping a test that ${message}\n`);
  return message;
}
