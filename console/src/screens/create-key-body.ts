import type { AndroidApp, ApiKey, ApiName, CreateApiKeyBody, KeyRestrictions, RestrictionsInput } from '../api/api-types.ts';
import { isAndroidPackage, isIosBundleId, isReferrerPattern, isSha1Fingerprint } from './key-restriction-rules.ts';
import { splitList } from '../ui/format.ts';

/** Google Cloud's one application restriction per key: none, IPs, websites, Android or iOS apps. */
export type AppRestriction = 'none' | 'ips' | 'referrers' | 'android' | 'ios';

/** Builds the create body from the form (pure, so the shape sent is easy to read and test). */
export function buildCreateKeyBody(form: {
  displayName: string;
  services: ApiName[];
  kind: AppRestriction;
  ips: string;
  referrers: string;
  android: AndroidApp[];
  ios: string;
  expiry: string;
  customDate: string;
  now?: number;
}): CreateApiKeyBody {
  const restrictions: RestrictionsInput = { services: form.services };
  if (form.kind === 'ips') restrictions.allowedIps = splitList(form.ips);
  if (form.kind === 'referrers') restrictions.allowedReferrers = splitList(form.referrers);
  if (form.kind === 'android')
    restrictions.androidApps = form.android
      .filter((a) => a.packageName.trim() || a.sha1Fingerprint.trim())
      .map((a) => ({ packageName: a.packageName.trim(), sha1Fingerprint: a.sha1Fingerprint.trim() }));
  if (form.kind === 'ios') restrictions.iosBundleIds = splitList(form.ios);
  const now = form.now ?? Date.now();
  const expireTime =
    form.expiry === 'never'
      ? undefined
      : form.expiry === 'custom'
        ? form.customDate
          ? new Date(`${form.customDate}T23:59:59`).toISOString()
          : undefined
        : new Date(now + Number(form.expiry) * 86400_000).toISOString();
  return {
    ...(form.displayName.trim() ? { displayName: form.displayName.trim() } : {}),
    restrictions,
    ...(expireTime ? { expireTime } : {}),
  };
}

/**
 * A first look at an IP or CIDR while typing (IPv4 dotted quad, or an IPv6-shaped string, with an
 * optional prefix length). The server's check (`node:net`) stays the judge; this catches typos early.
 */
export function looksLikeIpOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return false;
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(address);
  const v6 = !v4 && address.includes(':') && /^[0-9A-Fa-f:.]{2,45}$/.test(address) && (address.match(/::/g) ?? []).length <= 1;
  if (!v4 && !v6) return false;
  return prefix === undefined || Number(prefix) <= (v4 ? 32 : 128);
}

/** The entries of a restriction textarea that the server would refuse, with a message for the field. */
export function restrictionProblems(
  kind: AppRestriction,
  form: { ips: string; referrers: string; android: AndroidApp[]; ios: string },
): string | undefined {
  const bad = (list: string[], ok: (v: string) => boolean) => list.filter((v) => !ok(v));
  const say = (what: string, entries: string[]) =>
    `Not ${what}: ${entries
      .slice(0, 3)
      .map((e) => `“${e.slice(0, 60)}”`)
      .join(', ')}${entries.length > 3 ? ` and ${entries.length - 3} more` : ''}`;
  if (kind === 'ips') {
    const wrong = bad(splitList(form.ips), looksLikeIpOrCidr);
    return wrong.length ? say('an IP address or CIDR range', wrong) : undefined;
  }
  if (kind === 'referrers') {
    const wrong = bad(splitList(form.referrers), isReferrerPattern);
    return wrong.length ? say('a website pattern', wrong) : undefined;
  }
  if (kind === 'ios') {
    const wrong = bad(splitList(form.ios), isIosBundleId);
    return wrong.length ? say('a bundle ID', wrong) : undefined;
  }
  if (kind === 'android') {
    const apps = form.android.filter((a) => a.packageName.trim() || a.sha1Fingerprint.trim());
    const pkgs = bad(
      apps.map((a) => a.packageName.trim()),
      isAndroidPackage,
    );
    if (pkgs.length) return say('a package name', pkgs);
    const shas = bad(
      apps.map((a) => a.sha1Fingerprint.trim()),
      isSha1Fingerprint,
    );
    if (shas.length) return say('a SHA-1 fingerprint (40 hex digits, with or without colons)', shas);
  }
  return undefined;
}

/** The form's starting point for an existing key (edit), or a new one. */
export function formOf(key?: ApiKey): {
  displayName: string;
  services?: ApiName[];
  kind: AppRestriction;
  ips: string;
  referrers: string;
  android: AndroidApp[];
  ios: string;
} {
  const r: Partial<KeyRestrictions> = key?.restrictions ?? {};
  const kind: AppRestriction = r.allowedIps?.length
    ? 'ips'
    : r.allowedReferrers?.length
      ? 'referrers'
      : r.androidApps?.length
        ? 'android'
        : r.iosBundleIds?.length
          ? 'ios'
          : 'none';
  return {
    displayName: key?.displayName ?? '',
    services: r.services,
    kind,
    ips: (r.allowedIps ?? []).join('\n'),
    referrers: (r.allowedReferrers ?? []).join('\n'),
    android: r.androidApps?.length ? r.androidApps.map((a) => ({ ...a })) : [{ packageName: '', sha1Fingerprint: '' }],
    ios: (r.iosBundleIds ?? []).join('\n'),
  };
}
