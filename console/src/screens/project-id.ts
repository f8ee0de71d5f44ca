/** Google's project id rule (API.md §1): 6–30 chars, a lowercase letter first, no trailing hyphen. */
export const PROJECT_ID_RE = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/** A project id suggested from a display name, Google-style: `Receipts app` → `receipts-app-40213`. */
export function suggestProjectId(displayName: string, random = Math.random): string {
  const slug = displayName
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 23)
    .replace(/-+$/, '');
  const suffix = String(10000 + Math.floor(random() * 90000));
  return `${slug || 'project'}-${suffix}`;
}

export function projectIdProblem(id: string): string | undefined {
  if (id === '') return undefined;
  if (id.length < 6 || id.length > 30) return 'Use 6 to 30 characters.';
  if (!/^[a-z]/.test(id)) return 'Start with a lowercase letter.';
  if (!PROJECT_ID_RE.test(id)) return 'Use lowercase letters, digits and hyphens; do not end with a hyphen.';
  return undefined;
}
