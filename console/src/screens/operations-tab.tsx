import type { JSX } from 'preact';
import { apiPath } from '../api/api-client.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { Badge, EmptyState, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { formatDateTime } from '../ui/format.ts';
import type { ProjectOperationList } from '../api/api-types.ts';

const TONES: Record<string, 'neutral' | 'success' | 'warning' | 'danger' | 'accent'> = {
  CREATED: 'neutral',
  RUNNING: 'accent',
  DONE: 'success',
  CANCELLED: 'warning',
};

/** The project's asyncBatchAnnotate operations with state and progress, from `GET /api/projects/{p}/operations`. */
export function OperationsTab({ projectId }: { projectId: string }): JSX.Element {
  const { api } = useConsole();
  const ops = useResource(() => api.get<ProjectOperationList>(apiPath`/api/projects/${projectId}/operations`), [projectId]);
  const list = ops.data?.operations ?? [];
  return (
    <>
      <div class="section-header">
        <div>
          <h2 class="section-title">Operations</h2>
          <p class="muted">
            Long-running <code>files:asyncBatchAnnotate</code> and <code>images:asyncBatchAnnotate</code> jobs, newest first.
          </p>
        </div>
        <button type="button" class="btn btn-secondary" onClick={ops.reload}>
          Refresh
        </button>
      </div>
      <ErrorBanner error={ops.error} onRetry={ops.reload} />
      {ops.loading && !ops.data ? (
        <div class="card">
          <SkeletonRows rows={3} label="Loading operations" />
        </div>
      ) : list.length === 0 && !ops.error ? (
        <div class="card">
          <EmptyState icon="clock" title="No operations yet">
            Start one with <code>POST /v1/files:asyncBatchAnnotate</code> and an API key of this project.
          </EmptyState>
        </div>
      ) : list.length > 0 ? (
        <div class="card table-card">
          <table class="table">
            <caption class="sr-only">Operations of project {projectId}</caption>
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col">Method</th>
                <th scope="col">State</th>
                <th scope="col">Progress</th>
                <th scope="col" class="hide-sm">
                  Created
                </th>
                <th scope="col" class="hide-sm">
                  Updated
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((op) => {
                const m = op.metadata;
                const state = op.error && m.state === 'DONE' ? 'FAILED' : m.state;
                return (
                  <tr key={op.name}>
                    <td>
                      <code class="mono">{op.name.split('/').pop()}</code>
                    </td>
                    <td>{op.kind === 'files' ? 'files' : 'images'}:asyncBatchAnnotate</td>
                    <td>
                      <Badge tone={state === 'FAILED' ? 'danger' : (TONES[m.state] ?? 'neutral')}>{state}</Badge>
                      {op.error && (
                        <div class="muted" title={op.error.message}>
                          {op.error.message.slice(0, 80)}
                        </div>
                      )}
                    </td>
                    <td>
                      {m.totalPages ? (
                        <progress max={m.totalPages} value={m.pagesDone} aria-label={`${m.pagesDone} of ${m.totalPages} pages`} />
                      ) : null}{' '}
                      {m.pagesDone}
                      {m.totalPages ? ` / ${m.totalPages}` : ''} pages
                    </td>
                    <td class="hide-sm">{formatDateTime(m.createTime)}</td>
                    <td class="hide-sm">{formatDateTime(m.updateTime)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
