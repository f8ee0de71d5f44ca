import type { AuditEntry } from '../api/api-types.ts';

/** One line for an entry's details (`fields: ["restrictions"] · …`), wrapped by the table. */
export function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
}

/** Keeps the entries whose resource type is `type` (all when empty) and that mention `text` anywhere. */
export function filterAudit(entries: AuditEntry[], type: string, text: string): AuditEntry[] {
  const needle = text.trim().toLowerCase();
  return entries.filter(
    (e) =>
      (!type || e.resourceType === type) &&
      (!needle ||
        [e.action, e.resourceId, e.projectId ?? '', e.actor, describeDetails(e.details)].some((f) => f.toLowerCase().includes(needle))),
  );
}
