/**
 * What a repository tells the API-key verifier's cache after a change it caches (a key's secret,
 * restrictions or state; a project's state, its apis or their quotas) has committed. `app.ts` passes
 * the cluster-aware verifier: this node's cache is emptied at once and, on PostgreSQL, a NOTIFY
 * reaches every other node (`src/cluster/`). Without one (the CLI, a bare repository in a test)
 * there is no cache in the process to empty.
 */
export interface KeyCacheInvalidation {
  invalidateKey(keyId: string): void;
  invalidateProject(projectId: string): void;
}
