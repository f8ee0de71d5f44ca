import net from 'node:net';
import { isAndroidPackage, isIosBundleId, isReferrerPattern, isSha1Fingerprint } from './key-restriction-rules.ts';

export { isAndroidPackage, isIosBundleId, isReferrerPattern, isSha1Fingerprint, REFERRER_PATTERN } from './key-restriction-rules.ts';

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

export const KEY_RESTRICTION_FORMATS: Record<string, (value: string) => boolean> = {
  'ip-or-cidr': isIpOrCidr,
  'referrer-pattern': isReferrerPattern,
  'android-package': isAndroidPackage,
  'sha1-fingerprint': isSha1Fingerprint,
  'ios-bundle-id': isIosBundleId,
};

/** Fastify `ajv.plugins` entry: adds the formats above. */
export function keyRestrictionFormats<A extends { addFormat(name: string, format: { type: 'string'; validate: (v: string) => boolean }): unknown }>(ajv: A): A {
  for (const [name, validate] of Object.entries(KEY_RESTRICTION_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}
