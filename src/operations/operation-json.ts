import type { OperationRow } from './operations-repository.ts';
import type { Operation } from './operations-schemas.ts';

const TYPE = 'type.googleapis.com/google.cloud.vision.v1';
/** google.cloud.vision.v1.OperationMetadata.State numbers. */
const STATE_NUMBERS = { CREATED: 1, RUNNING: 2, DONE: 3, CANCELLED: 4 } as const;

/** `projects/{p}[/locations/{l}]/operations/{id}`: the name a client polls with `GET /v1/{name}`. */
export function operationName(row: Pick<OperationRow, 'project_id' | 'location' | 'operation_id'>): string {
  return `projects/${row.project_id}${row.location ? `/locations/${row.location}` : ''}/operations/${row.operation_id}`;
}

/**
 * A `google.longrunning.Operation` as proto3 JSON: `metadata` is Vision's OperationMetadata (state,
 * createTime, updateTime) and, when done, `response` (AsyncBatchAnnotate{Files,Images}Response) or
 * `error` (google.rpc.Status), each `Any` with its `@type`. Progress per page is not in Google's
 * message: it is added as `pagesDone`/`totalPages` after Google's fields (a Legible extension that
 * Google's clients ignore).
 */
export function operationJson(row: OperationRow, enumEncoding: 'name' | 'int' = 'name'): Operation {
  const state = row.state === 'CREATED' && row.done_pages > 0 ? 'RUNNING' : row.state;
  const metadata: Operation['metadata'] = {
    '@type': `${TYPE}.OperationMetadata`,
    state: enumEncoding === 'int' ? STATE_NUMBERS[state] : state,
    createTime: row.create_time,
    updateTime: row.update_time,
  };
  const done = row.state === 'DONE' || row.state === 'CANCELLED';
  const out: Operation = { name: operationName(row), metadata };
  if (done) out.done = true;
  if (done && row.error) out.error = JSON.parse(row.error) as Operation['error'];
  else if (done && row.response) {
    const kind = row.kind === 'files' ? 'AsyncBatchAnnotateFilesResponse' : 'AsyncBatchAnnotateImagesResponse';
    out.response = { '@type': `${TYPE}.${kind}`, ...(JSON.parse(row.response) as Record<string, unknown>) };
  }
  return out;
}

/**
 * The Operation with Legible's progress extension in its metadata (`pagesDone`, `totalPages`; Google's
 * clients ignore unknown fields): what polls and lists answer. A just-started job is answered by
 * `operationJson` alone, as Google does.
 */
export function operationWithProgress(row: OperationRow, enumEncoding: 'name' | 'int' = 'name'): Operation {
  const json = operationJson(row, enumEncoding);
  const progress = { pagesDone: row.done_pages, ...(row.total_pages !== null ? { totalPages: row.total_pages } : {}) };
  return { ...json, metadata: { ...json.metadata, ...progress } };
}
