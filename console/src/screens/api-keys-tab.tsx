import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { apiKeysApi, apisApi } from '../api/endpoints.ts';
import type { ApiKey, CreatedApiKey } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { Badge, EmptyState, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { formatDate, formatDateTime, formatRelative } from '../ui/format.ts';
import { SecretDialog } from '../ui/secret-dialog.tsx';
import { CreateApiKeyDialog } from './create-api-key-dialog.tsx';
import { RotateApiKeyDialog } from './rotate-api-key-dialog.tsx';
import { restrictionSummary } from './key-restrictions-summary.ts';

export function ApiKeysTab({ projectId, readOnly }: { projectId: string; readOnly: boolean }): JSX.Element {
  const { api, notify } = useConsole();
  const keys = useResource(() => apiKeysApi.list(api, projectId), [projectId]);
  const catalog = useResource(async () => {
    const [all, project] = await Promise.all([apisApi.catalog(api), apisApi.list(api, projectId)]);
    const enabled = new Set(project.filter((a) => a.state === 'ENABLED').map((a) => a.api));
    return all.map((a) => ({ ...a, enabled: enabled.has(a.api) }));
  }, [projectId]);
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<ApiKey>();
  const [editing, setEditing] = useState<ApiKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [secret, setSecret] = useState<{ key: CreatedApiKey; title: string; note?: string }>();
  const list = keys.data ?? [];

  const createButton = !readOnly && (
    <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
      <Icon name="plus" /> Create API key
    </button>
  );

  return (
    <>
      <div class="section-header">
        <div>
          <h2 class="section-title">API keys</h2>
          <p class="muted">Keys let your apps call this project's enabled APIs. Restrict each one to what it needs.</p>
        </div>
        {list.length > 0 && createButton}
      </div>
      <ErrorBanner error={keys.error} onRetry={keys.reload} />
      {keys.loading && !keys.data ? (
        <div class="card">
          <SkeletonRows rows={3} label="Loading API keys" />
        </div>
      ) : list.length === 0 && !keys.error ? (
        <div class="card">
          <EmptyState icon="key" title="No API keys yet" action={createButton}>
            Create a key to call <code>images:annotate</code> from your app. Its secret is shown once, when you create it.
          </EmptyState>
        </div>
      ) : list.length > 0 ? (
        <div class="card table-card">
          <table class="table">
            <caption class="sr-only">API keys of project {projectId}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col" class="hide-sm">
                  Restrictions
                </th>
                <th scope="col" class="hide-sm">
                  Created
                </th>
                <th scope="col">Last used</th>
                <th scope="col" class="hide-sm">
                  Expires
                </th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((key) => {
                const { state } = key;
                const name = key.displayName || key.keyId;
                return (
                  <tr key={key.keyId} class={state !== 'ACTIVE' ? 'row-muted' : ''}>
                    <td>
                      <div class="cell-title">{name}</div>
                      <div class="cell-sub mono">{key.keyId}</div>
                    </td>
                    <td>
                      <code class="mono key-hint">{key.hint ? `${key.hint}…` : '—'}</code>
                      {state !== 'ACTIVE' && (
                        <Badge tone={state === 'REVOKED' ? 'danger' : 'warning'}>{state === 'REVOKED' ? 'Revoked' : 'Expired'}</Badge>
                      )}
                    </td>
                    <td class="hide-sm">
                      <div class="chips">
                        {restrictionSummary(key.restrictions).map((r) => (
                          <span class="chip" key={r}>
                            {r}
                          </span>
                        ))}
                      </div>
                    </td>
                    <td class="hide-sm" title={formatDateTime(key.createTime)}>
                      {formatDate(key.createTime)}
                    </td>
                    <td title={key.lastUsedTime ? formatDateTime(key.lastUsedTime) : undefined}>
                      {key.lastUsedTime ? formatRelative(key.lastUsedTime) : <span class="muted">Never</span>}
                    </td>
                    <td class="hide-sm" title={key.expireTime ? formatDateTime(key.expireTime) : undefined}>
                      {key.expireTime ? formatRelative(key.expireTime) : <span class="muted">Never</span>}
                    </td>
                    <td class="cell-actions">
                      {!readOnly && state === 'ACTIVE' && (
                        <>
                          <button
                            type="button"
                            class="btn btn-ghost btn-sm"
                            onClick={() => setEditing(key)}
                            aria-label={`Edit key ${name}`}
                          >
                            <Icon name="edit" /> <span class="hide-sm">Edit</span>
                          </button>
                          <button
                            type="button"
                            class="btn btn-ghost btn-sm"
                            onClick={() => setRotating(key)}
                            aria-label={`Rotate key ${name}`}
                          >
                            <Icon name="rotate" /> <span class="hide-sm">Rotate</span>
                          </button>
                          <button
                            type="button"
                            class="btn btn-ghost btn-sm btn-danger-text"
                            onClick={() => setRevoking(key)}
                            aria-label={`Revoke key ${name}`}
                          >
                            <Icon name="trash" /> <span class="hide-sm">Revoke</span>
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}

      {creating && (
        <CreateApiKeyDialog
          projectId={projectId}
          services={catalog.data ?? []}
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setSecret({ key, title: 'API key created' });
            void keys.reload();
          }}
        />
      )}
      {editing && (
        <CreateApiKeyDialog
          projectId={projectId}
          services={catalog.data ?? []}
          editing={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(key) => {
            setEditing(undefined);
            notify(`Key ${key.displayName || key.keyId} saved.`);
            void keys.reload();
          }}
        />
      )}
      {rotating && (
        <RotateApiKeyDialog
          projectId={projectId}
          apiKey={rotating}
          onClose={() => setRotating(undefined)}
          onRotated={(key, note) => {
            setRotating(undefined);
            setSecret({ key, title: 'API key rotated', note });
            void keys.reload();
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.displayName || revoking.keyId}”?`}
          confirmLabel="Revoke key"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await apiKeysApi.revoke(api, projectId, revoking.keyId);
            notify(`Key ${revoking.displayName || revoking.keyId} revoked.`);
            setRevoking(undefined);
            void keys.reload();
          }}
        >
          <p>
            Requests with <code class="mono">{revoking.hint}…</code> are refused from the next request on, on every node. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
      {secret?.key.keyString && (
        <SecretDialog title={secret.title} label="Your API key" secret={secret.key.keyString} onDone={() => setSecret(undefined)}>
          {secret.note && <p class="muted">{secret.note}</p>}
          <p class="field-hint">
            Use it as <code>Authorization: Bearer …</code>, <code>X-Goog-Api-Key</code> or <code>?key=</code>. In the playground's curl
            commands it is <code>$LEGIBLE_API_KEY</code>.
          </p>
        </SecretDialog>
      )}
    </>
  );
}
