import { execFileSync } from 'node:child_process';

/** The path of a Chromium on PATH (the Debian `chromium` package, or another name for it), if any. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not on PATH
    }
  }
  return undefined;
}
