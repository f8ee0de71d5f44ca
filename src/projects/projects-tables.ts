export interface ProjectsTable {
  project_id: string;
  account_id: string;
  display_name: string;
  /** `ACTIVE` | `DELETE_REQUESTED` */
  state: string;
  create_time: string;
  update_time: string;
  delete_time: string | null;
}

/** One row per (project, api) ever enabled; disabling keeps the row with `state = 'DISABLED'`. */
export interface ProjectApisTable {
  project_id: string;
  api: string;
  /** `ENABLED` | `DISABLED` */
  state: string;
  requests_per_minute: number;
  create_time: string;
  update_time: string;
}

export interface ProjectsTables {
  projects: ProjectsTable;
  project_apis: ProjectApisTable;
}
