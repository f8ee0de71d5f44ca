import fs from 'node:fs/promises';
import path from 'node:path';

/** Extensions of the formats the engine decodes (Google's list plus HEIC/AVIF from phones). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.jpg',
  '.jpeg',
  '.jfif',
  '.png',
  '.gif',
  '.bmp',
  '.webp',
  '.tif',
  '.tiff',
  '.ico',
  '.heic',
  '.heif',
  '.avif',
  '.pdf',
]);

/** A file to read (`-`: standard input), or an argument that could not be used, in the order given. */
export type OcrInput = { file: string; stdin?: true } | { file: string; error: string };

/**
 * Expands the command's arguments: files as given (whatever their extension: the user named them),
 * directories recursively to their image files in name order. Symbolic links to directories are
 * not followed, so a link loop cannot recurse forever. Missing paths come back as errors; `-` is
 * standard input, as with tesseract and most Unix tools.
 */
export async function collectOcrInputs(args: readonly string[]): Promise<OcrInput[]> {
  const out: OcrInput[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push({ file: '-', stdin: true });
      continue;
    }
    const stat = await fs.stat(arg).catch((err: NodeJS.ErrnoException) => err);
    if (stat instanceof Error) out.push({ file: arg, error: describe(stat) });
    else if (stat.isDirectory()) out.push(...(await walk(arg)));
    else out.push({ file: arg });
  }
  return out;
}

async function walk(dir: string): Promise<OcrInput[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => err);
  if (entries instanceof Error) return [{ file: dir, error: describe(entries) }];
  const out: OcrInput[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(full)));
    else if ((e.isFile() || e.isSymbolicLink()) && IMAGE_EXTENSIONS.has(path.extname(e.name).toLowerCase())) out.push({ file: full });
  }
  return out;
}

export function describe(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  return err.message;
}
