import net from 'node:net';

/**
 * JSON-schema `format`s for API key restrictions, registered on Fastify's Ajv (`app.ts`), so the
 * route schema stays the only validation and a bad entry is reported as e.g.
 * `restrictions.allowedIps[1] must match format "ip-or-cidr"`.
 */

/** An IPv4/IPv6 address, optionally with a CIDR prefix length (`10.0.0.0/8`, `2001:db8::/32`). */
export function isIpOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

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

export const KEY_RESTRICTION_FORMATS: Record<string, (value: string) => boolean> = {
  'ip-or-cidr': isIpOrCidr,
  'referrer-pattern': isReferrerPattern,
  'android-package': isAndroidPackage,
  'sha1-fingerprint': isSha1Fingerprint,
  'ios-bundle-id': isIosBundleId,
};

/** Fastify `ajv.plugins` entry: adds the formats above. */
export function keyRestrictionFormats<
  A extends { addFormat(name: string, format: { type: 'string'; validate: (v: string) => boolean }): unknown },
>(ajv: A): A {
  for (const [name, validate] of Object.entries(KEY_RESTRICTION_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}
