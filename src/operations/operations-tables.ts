export type OperationState = 'CREATED' | 'RUNNING' | 'DONE' | 'CANCELLED';
export type OperationKind = 'files' | 'images';

export interface VisionOperationsTable {
  operation_id: string;
  project_id: string;
  account_id: string;
  /** The API key that started the job (its pages are counted to it); null before migration 0006. */
  key_id: string | null;
  location: string | null;
  kind: OperationKind;
  state: OperationState;
  /** The validated request as proto3 JSON (bytes as base64). */
  request: string;
  /** JSON `JobProgress`: the batches already written. */
  progress: string;
  total_pages: number | null;
  done_pages: number;
  /** JSON of the Operation's `response` (without @type) once DONE. */
  response: string | null;
  /** JSON google.rpc.Status once DONE with an error (or CANCELLED). */
  error: string | null;
  cancel_requested: number;
  lease_owner: string | null;
  lease_expires: string | null;
  attempts: number;
  create_time: string;
  update_time: string;
  end_time: string | null;
}

export interface OperationsTables {
  vision_operations: VisionOperationsTable;
}
