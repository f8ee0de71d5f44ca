import type { CreateKeyBody } from '../api/endpoints.ts';
import type { AndroidApp, KeyRestrictions } from '../api/api-types.ts';
import { splitList } from '../ui/format.ts';

/** Google Cloud's one application restriction per key: none, IPs, websites, Android or iOS apps. */
export type AppRestriction = 'none' | 'ips' | 'referrers' | 'android' | 'ios';

/** Builds the create body from the form (pure, so the shape sent is easy to read and test). */
export function buildCreateKeyBody(form: {
  displayName: string;
  services: string[];
  kind: AppRestriction;
  ips: string;
  referrers: string;
  android: AndroidApp[];
  ios: string;
  expiry: string;
  customDate: string;
  now?: number;
}): CreateKeyBody {
  const restrictions: KeyRestrictions = { services: form.services };
  if (form.kind === 'ips') restrictions.allowedIps = splitList(form.ips);
  if (form.kind === 'referrers') restrictions.allowedReferrers = splitList(form.referrers);
  if (form.kind === 'android') restrictions.androidApps = form.android.filter((a) => a.packageName.trim() || a.sha1Fingerprint.trim()).map((a) => ({ packageName: a.packageName.trim(), sha1Fingerprint: a.sha1Fingerprint.trim() }));
  if (form.kind === 'ios') restrictions.iosBundleIds = splitList(form.ios);
  const now = form.now ?? Date.now();
  const expireTime =
    form.expiry === 'never' ? undefined
    : form.expiry === 'custom' ? (form.customDate ? new Date(`${form.customDate}T23:59:59`).toISOString() : undefined)
    : new Date(now + Number(form.expiry) * 86400_000).toISOString();
  return {
    ...(form.displayName.trim() ? { displayName: form.displayName.trim() } : {}),
    restrictions,
    ...(expireTime ? { expireTime } : {}),
  };
}

