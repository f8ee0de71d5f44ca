export interface AuditLogTable {
  /** Time-sortable (`newId('aud')`), so "newest first" is `order by audit_id desc`. */
  audit_id: string;
  account_id: string;
  /** Who: `token:<tokenId>` for account tokens, `cli` for the operator. */
  actor: string;
  /** What: `project.create`, `api_key.rotate`, … */
  action: string;
  resource_type: string;
  resource_id: string;
  project_id: string | null;
  /** JSON object; never secrets. */
  details: string;
  create_time: string;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
