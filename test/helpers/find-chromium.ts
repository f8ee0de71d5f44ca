import { execFileSync } from 'node:child_process';
import type { TestContext } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

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

/**
 * A browser test's `skip` option: skipped on a machine without Chromium (with the reason), but never
 * in CI (`CI` set), where a missing browser must fail the suite rather than hide it.
 */
export function skipWithoutChromium(chromium: string | undefined): false | string {
  if (chromium || process.env.CI) return false;
  return 'no Chromium on PATH: install the Debian `chromium` package (CI fails instead of skipping)';
}

/** Headless Chromium at `executablePath` (from `findChromium`), quiet (no background traffic), closed after the test. */
export async function launchChromium(t: TestContext, executablePath: string | undefined): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  t.after(() => browser.close());
  return browser;
}
