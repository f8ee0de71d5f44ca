import type { KeyRestrictions } from '../api/api-types.ts';

/** Short chips for the key list: `ocr`, `2 IPs`, `1 referrer`, `Android`, `iOS`. */
export function restrictionSummary(r: KeyRestrictions | undefined): string[] {
  if (!r) return ['Any enabled API'];
  const out: string[] = [];
  if (r.services) out.push(...(r.services.length ? r.services : ['No services']));
  const count = (n: number | undefined, one: string, many: string) => (n ? [`${n} ${n === 1 ? one : many}`] : []);
  out.push(...count(r.allowedIps?.length, 'IP range', 'IP ranges'));
  out.push(...count(r.allowedReferrers?.length, 'referrer', 'referrers'));
  out.push(...count(r.androidApps?.length, 'Android app', 'Android apps'));
  out.push(...count(r.iosBundleIds?.length, 'iOS app', 'iOS apps'));
  return out;
}
