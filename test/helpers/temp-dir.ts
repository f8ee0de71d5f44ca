import { after } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dirs: string[] = [];
// Removed once every test of the file has ended, not in the test's own `t.after`: those hooks run in the
// order they were added, so one added before a server started would delete its directory under it.
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the OS's temp dir, named `prefix…`, removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
