import net from 'node:net';
import type { ApiName } from '../projects/api-catalog.ts';
import type { KeyRestrictions, RestrictionsInput } from './api-keys-schemas.ts';
import { compileGlob } from './glob-matcher.ts';
import { REFERRER_PATTERN } from './key-restriction-formats.ts';

/** Colon-separated uppercase pairs, keytool's display form: `DA:39:A3:…`. */
export function normalizeSha1(fingerprint: string): string {
  const hex = fingerprint.replace(/:/g, '').toUpperCase();
  return hex.match(/.{2}/g)!.join(':');
}

/** Stored form of restrictions from a (schema-valid) request body (the shapes: `api-keys-schemas.ts`). */
export function normalizeRestrictions(input: RestrictionsInput | undefined, servicesWhenAbsent: readonly ApiName[]): KeyRestrictions {
  const out: KeyRestrictions = { services: [...new Set(input?.services ?? servicesWhenAbsent)].sort() };
  if (input?.allowedIps?.length) out.allowedIps = [...new Set(input.allowedIps)];
  if (input?.allowedReferrers?.length) out.allowedReferrers = [...new Set(input.allowedReferrers)];
  if (input?.androidApps?.length) {
    out.androidApps = input.androidApps.map((a) => ({ packageName: a.packageName, sha1Fingerprint: normalizeSha1(a.sha1Fingerprint) }));
  }
  if (input?.iosBundleIds?.length) out.iosBundleIds = [...new Set(input.iosBundleIds)];
  return out;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`, so IPv4 rules match clients seen through a dual-stack socket. */
function unmapIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1] : ip;
}

function ipMatcher(entries: string[]): (ip: string) => boolean {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (rawIp) => {
    const ip = unmapIp(rawIp);
    const version = net.isIP(ip);
    if (version === 0) return false;
    return list.check(ip, version === 6 ? 'ipv6' : 'ipv4');
  };
}

/** One compiled Google-style referrer pattern (see `REFERRER_PATTERN`). */
function referrerMatcher(pattern: string): (url: URL) => boolean {
  const [, scheme, host, port, path] = REFERRER_PATTERN.exec(pattern) ?? [];
  const lowerHost = (host ?? '').toLowerCase();
  const pathMatches = path ? compileGlob(path) : undefined;
  return (url) => {
    const protocol = url.protocol.replace(/:$/, '');
    if (scheme && scheme !== '*' ? protocol !== scheme.toLowerCase() : protocol !== 'http' && protocol !== 'https') return false;
    const hostname = url.hostname.toLowerCase();
    if (lowerHost !== '*') {
      if (lowerHost.startsWith('*.')) {
        if (!hostname.endsWith(lowerHost.slice(1))) return false;
      } else if (hostname !== lowerHost) return false;
    }
    if (port !== '*' && (url.port || '') !== (port ?? '')) return false;
    return pathMatches ? pathMatches(`${url.pathname}${url.search}`) : true;
  };
}

export interface CompiledRestrictions {
  services: ReadonlySet<string>;
  allowsIp(ip: string): boolean;
  allowsReferrer(referer: string | undefined): boolean;
  allowsAndroid(packageName: string | undefined, cert: string | undefined): boolean;
  allowsIos(bundleId: string | undefined): boolean;
}

/** Pre-compiles the stored restrictions once per cache load; each check is then cheap. */
export function compileRestrictions(r: KeyRestrictions): CompiledRestrictions {
  const ips = r.allowedIps?.length ? ipMatcher(r.allowedIps) : undefined;
  const referrers = r.allowedReferrers?.length ? r.allowedReferrers.map(referrerMatcher) : undefined;
  const android = r.androidApps?.length
    ? r.androidApps.map((a) => ({ pkg: a.packageName, cert: a.sha1Fingerprint.replace(/:/g, '') }))
    : undefined;
  const ios = r.iosBundleIds?.length ? new Set(r.iosBundleIds) : undefined;
  return {
    services: new Set(r.services),
    allowsIp: (ip) => !ips || ips(ip),
    allowsReferrer(referer) {
      if (!referrers) return true;
      if (!referer || referer.length > 4096) return false;
      let url: URL;
      try {
        url = new URL(referer);
      } catch {
        return false;
      }
      return referrers.some((m) => m(url));
    },
    allowsAndroid(packageName, cert) {
      if (!android) return true;
      if (!packageName || !cert) return false;
      const hex = cert.replace(/:/g, '').toUpperCase();
      return android.some((a) => a.pkg === packageName && a.cert === hex);
    },
    allowsIos: (bundleId) => !ios || (bundleId !== undefined && ios.has(bundleId)),
  };
}
