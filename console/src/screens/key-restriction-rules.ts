/**
 * The console's copy of the key-restriction formats that need no Node API, to check them as the user
 * types. The server's rules are in src/api-keys/key-restriction-formats.ts (the console bundle is built
 * from console/ alone); test/console-web-logic.test.ts checks that both agree.
 */

/**
 * Google's referrer patterns: `[scheme://]host[:port][/path]`, where the host may be `*` or start with
 * `*.` (any subdomain), the port may be `*`, and the path may contain `*` (any characters).
 */
export const REFERRER_PATTERN = /^(?:(https?|\*):\/\/)?(\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}|\*))?(\/[^\s]*)?$/i;

export function isReferrerPattern(value: string): boolean {
  return value.length <= 2048 && REFERRER_PATTERN.test(value);
}

/** Android application id (https://developer.android.com/build/configure-app-module#set-application-id). */
export function isAndroidPackage(value: string): boolean {
  return value.length <= 255 && /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(value);
}

/** A SHA-1 certificate fingerprint: 40 hex digits, plain or in colon-separated pairs (keytool's output). */
export function isSha1Fingerprint(value: string): boolean {
  return /^[0-9A-Fa-f]{40}$/.test(value) || /^([0-9A-Fa-f]{2}:){19}[0-9A-Fa-f]{2}$/.test(value);
}

/** An iOS bundle id (reverse-DNS, letters, digits, hyphens and dots). */
export function isIosBundleId(value: string): boolean {
  return value.length <= 155 && /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(value);
}
