import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { oauthApi } from '../api/endpoints.ts';
import type { ClientSecret, ClientSecretCreated, OAuthClient } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { Badge, ErrorBanner, SkeletonRows, Spinner } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { formatDate, formatRelative } from '../ui/format.ts';
import { SecretDialog } from '../ui/secret-dialog.tsx';

const STATE_TONE = { ACTIVE: 'success', EXPIRED: 'warning', REVOKED: 'danger' } as const;

/** A client's secrets: add one (shown once), revoke old ones — rotation without downtime. */
export function ClientSecretsPanel(props: { id: string; projectId: string; client: OAuthClient; readOnly: boolean }): JSX.Element {
  const { api, notify } = useConsole();
  const secrets = useResource(() => oauthApi.secrets(api, props.projectId, props.client.clientId), [props.client.clientId]);
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<Error>();
  const [created, setCreated] = useState<ClientSecretCreated>();
  const [revoking, setRevoking] = useState<ClientSecret>();

  const add = async () => {
    setAdding(true);
    setAddError(undefined);
    try {
      setCreated(await oauthApi.addSecret(api, props.projectId, props.client.clientId, {}));
      void secrets.reload();
    } catch (err) {
      setAddError(err as Error);
    } finally {
      setAdding(false);
    }
  };

  return (
    <div id={props.id} class="client-secrets">
      <div class="client-secrets-head">
        <h4>Client secrets</h4>
        {!props.readOnly && (
          <button type="button" class="btn btn-secondary btn-sm" onClick={add} disabled={adding}>
            {adding ? <Spinner label="Adding secret" /> : <Icon name="plus" />} Add secret
          </button>
        )}
      </div>
      <ErrorBanner error={addError ?? secrets.error} />
      {secrets.loading && !secrets.data ? (
        <SkeletonRows rows={1} label="Loading secrets" />
      ) : (secrets.data ?? []).length === 0 ? (
        <p class="muted">No secrets. Add one to let this client authenticate.</p>
      ) : (
        <table class="table table-compact">
          <caption class="sr-only">Secrets of client {props.client.clientId}</caption>
          <thead>
            <tr>
              <th scope="col">Secret</th>
              <th scope="col">State</th>
              <th scope="col" class="hide-sm">
                Created
              </th>
              <th scope="col" class="hide-sm">
                Last used
              </th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(secrets.data ?? []).map((s) => (
              <tr key={s.secretId}>
                <td>
                  <code class="mono">{s.hint}…</code>
                </td>
                <td>
                  <Badge tone={STATE_TONE[s.state]}>{s.state.toLowerCase()}</Badge>
                </td>
                <td class="hide-sm">{formatDate(s.createTime)}</td>
                <td class="hide-sm">{s.lastUsedTime ? formatRelative(s.lastUsedTime) : <span class="muted">Never</span>}</td>
                <td class="cell-actions">
                  {!props.readOnly && s.state === 'ACTIVE' && (
                    <button
                      type="button"
                      class="btn btn-ghost btn-sm btn-danger-text"
                      onClick={() => setRevoking(s)}
                      aria-label={`Revoke secret ${s.hint}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {created?.clientSecret && (
        <SecretDialog title="Client secret added" label="Client secret" secret={created.clientSecret} onDone={() => setCreated(undefined)}>
          <p class="field-hint">Deploy it, then revoke the old secret.</p>
        </SecretDialog>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke secret ${revoking.hint}…?`}
          confirmLabel="Revoke secret"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await oauthApi.revokeSecret(api, props.projectId, props.client.clientId, revoking.secretId);
            notify('Client secret revoked.');
            setRevoking(undefined);
            void secrets.reload();
          }}
        >
          <p>The client can no longer authenticate with this secret. Make sure your app uses a newer one.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
