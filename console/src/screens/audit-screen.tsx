import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { auditApi } from '../api/endpoints.ts';
import type { AuditEntry } from '../api/api-types.ts';
import { href } from '../router.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { EmptyState, ErrorBanner, SkeletonRows, Spinner } from '../ui/feedback.tsx';
import { formatDateTime, formatRelative } from '../ui/format.ts';
import { describeDetails, filterAudit } from './audit-filter.ts';

const VERB_TONE: Record<string, string> = {
  create: 'accent',
  enable: 'accent',
  delete: 'danger',
  revoke: 'danger',
  disable: 'danger',
  rotate: 'warning',
};

function toneOf(action: string): string {
  const verb = action.split('.').pop() ?? '';
  return VERB_TONE[verb] ?? 'neutral';
}

/** The account's audit log (every mutation, newest first), paged with "Load more", filtered by type and text. */
export function AuditScreen(): JSX.Element {
  const { api, session } = useConsole();
  const first = useResource(() => auditApi.page(api, session.accountId), [session.accountId]);
  const [more, setMore] = useState<{ entries: AuditEntry[]; nextPageToken?: string }>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error>();
  const loaded = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const [type, setType] = useState('');
  const [text, setText] = useState('');
  const types = [...new Set(loaded.map((e) => e.resourceType))].sort();
  const entries = filterAudit(loaded, type, text);
  const nextPageToken = more ? more.nextPageToken : first.data?.nextPageToken;

  const loadMore = async () => {
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await auditApi.page(api, session.accountId, nextPageToken);
      setMore({ entries: [...(more?.entries ?? []), ...page.entries], nextPageToken: page.nextPageToken });
    } catch (err) {
      setMoreError(err as Error);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 tabIndex={-1}>Audit log</h1>
          <p class="page-subtitle">
            Every change to account <code class="mono">{session.accountId}</code>: who did what, and when. Secrets are never recorded.
          </p>
        </div>
        <button
          type="button"
          class="btn btn-secondary"
          onClick={() => {
            setMore(undefined);
            void first.reload();
          }}
        >
          Refresh
        </button>
      </header>
      <ErrorBanner error={first.error} onRetry={first.reload} />
      {first.loading && !first.data ? (
        <div class="card">
          <SkeletonRows rows={6} label="Loading audit log" />
        </div>
      ) : loaded.length === 0 && !first.error ? (
        <div class="card">
          <EmptyState icon="list" title="Nothing recorded yet">
            Creating projects, keys and clients, and changing limits, all show up here.
          </EmptyState>
        </div>
      ) : loaded.length > 0 ? (
        <>
          {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet in every browser the console supports */}
          <div class="audit-filters" role="search">
            <div class="field">
              <label for="audit-type">Resource</label>
              <select id="audit-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
                <option value="">All</option>
                {types.map((t) => (
                  <option key={t} value={t}>
                    {t.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="audit-text">Search</label>
              <input
                id="audit-text"
                type="search"
                placeholder="action, id, project, actor…"
                value={text}
                onInput={(e) => setText(e.currentTarget.value)}
              />
            </div>
            <p class="field-hint" aria-live="polite">
              {entries.length} of {loaded.length} loaded entries{nextPageToken ? ' (load more to search further back)' : ''}
            </p>
          </div>
          <div class="card table-card">
            <table class="table">
              <caption class="sr-only">Audit log, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Action</th>
                  <th scope="col">Resource</th>
                  <th scope="col" class="hide-sm">
                    Project
                  </th>
                  <th scope="col" class="hide-sm">
                    Actor
                  </th>
                  <th scope="col" class="hide-md">
                    Details
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.auditId}>
                    <td title={formatDateTime(e.createTime)} class="nowrap">
                      {formatRelative(e.createTime)}
                    </td>
                    <td>
                      <span class={`badge badge-${toneOf(e.action)} mono`}>{e.action}</span>
                    </td>
                    <td>
                      <div class="cell-title">{e.resourceType.replace(/_/g, ' ')}</div>
                      <div class="cell-sub mono truncate">{e.resourceId}</div>
                    </td>
                    <td class="hide-sm nowrap">
                      {e.projectId ? (
                        <a href={href({ name: 'project', projectId: e.projectId, tab: 'apis' })} class="mono">
                          {e.projectId}
                        </a>
                      ) : (
                        <span class="muted">—</span>
                      )}
                    </td>
                    <td class="hide-sm nowrap cell-sub" title={e.actor}>
                      {e.actor.startsWith('token:') ? (
                        <>
                          <span class="actor-kind">Token</span> <span class="mono">{e.actor.slice('token:'.length)}</span>
                        </>
                      ) : (
                        <span class="actor-kind">{e.actor}</span>
                      )}
                    </td>
                    <td class="hide-md cell-sub details-cell">{describeDetails(e.details)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {nextPageToken && (
              <div class="table-foot">
                <ErrorBanner error={moreError} />
                <button type="button" class="btn btn-secondary btn-sm" onClick={loadMore} disabled={loadingMore}>
                  {loadingMore && <Spinner label="Loading more" />} Load more
                </button>
              </div>
            )}
          </div>
        </>
      ) : null}
    </div>
  );
}
