import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { oauthApi } from '../api/endpoints.ts';
import type { OAuthClient, OAuthClientCreated } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { EmptyState, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { formatDate } from '../ui/format.ts';
import { SecretDialog } from '../ui/secret-dialog.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { CreateOAuthClientDialog } from './create-oauth-client-dialog.tsx';
import { ClientSecretsPanel } from './client-secrets-panel.tsx';

export function OAuthClientsTab({ projectId, readOnly }: { projectId: string; readOnly: boolean }): JSX.Element {
  const { api, notify } = useConsole();
  const clients = useResource(() => oauthApi.list(api, projectId), [projectId]);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<OAuthClient>();
  const [created, setCreated] = useState<OAuthClientCreated>();
  const [open, setOpen] = useState<string>();
  const list = clients.data ?? [];

  const createButton = !readOnly && (
    <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
      <Icon name="plus" /> Register client
    </button>
  );

  return (
    <>
      <div class="section-header">
        <div>
          <h2 class="section-title">OAuth clients</h2>
          <p class="muted">
            Apps that sign users in or call Legible with OAuth 2.1. Confidential clients hold one or more rotating secrets.
          </p>
        </div>
        {list.length > 0 && createButton}
      </div>
      <ErrorBanner error={clients.error} onRetry={clients.reload} />
      {clients.loading && !clients.data ? (
        <div class="card">
          <SkeletonRows rows={2} label="Loading OAuth clients" />
        </div>
      ) : list.length === 0 && !clients.error ? (
        <div class="card">
          <EmptyState icon="shield" title="No OAuth clients" action={createButton}>
            Register a client with its redirect URIs and grant types (RFC 7591). Client secrets are shown once.
          </EmptyState>
        </div>
      ) : (
        <div class="stack">
          {list.map((client) => {
            const expanded = open === client.clientId;
            const panelId = `secrets-${client.clientId}`;
            return (
              <article class="card client-card" key={client.clientId}>
                <div class="client-head">
                  <div class="client-text">
                    <h3 class="card-title">{client.clientName || 'Unnamed client'}</h3>
                    <div class="client-meta">
                      <code class="mono">{client.clientId}</code>
                      <CopyButton text={client.clientId} label="Copy ID" />
                    </div>
                    <dl class="meta-grid">
                      <div>
                        <dt>Grant types</dt>
                        <dd>{client.grantTypes.join(', ') || '—'}</dd>
                      </div>
                      <div>
                        <dt>Authentication</dt>
                        <dd>
                          <code class="mono">{client.tokenEndpointAuthMethod}</code>
                        </dd>
                      </div>
                      <div>
                        <dt>Redirect URIs</dt>
                        <dd>
                          {client.redirectUris.length
                            ? client.redirectUris.map((u) => (
                                <div key={u} class="mono truncate">
                                  {u}
                                </div>
                              ))
                            : '—'}
                        </dd>
                      </div>
                      <div>
                        <dt>Created</dt>
                        <dd>{formatDate(client.createTime)}</dd>
                      </div>
                    </dl>
                  </div>
                  <div class="client-actions">
                    {client.tokenEndpointAuthMethod !== 'none' && (
                      <button
                        type="button"
                        class="btn btn-secondary btn-sm"
                        aria-expanded={expanded}
                        aria-controls={panelId}
                        onClick={() => setOpen(expanded ? undefined : client.clientId)}
                      >
                        <Icon name="key" /> Secrets <Icon name="chevronDown" class={expanded ? 'rot180' : ''} />
                      </button>
                    )}
                    {!readOnly && (
                      <button
                        type="button"
                        class="btn btn-ghost btn-sm btn-danger-text"
                        onClick={() => setDeleting(client)}
                        aria-label={`Delete client ${client.clientName || client.clientId}`}
                      >
                        <Icon name="trash" /> <span class="hide-sm">Delete</span>
                      </button>
                    )}
                  </div>
                </div>
                {expanded && <ClientSecretsPanel id={panelId} projectId={projectId} client={client} readOnly={readOnly} />}
              </article>
            );
          })}
        </div>
      )}

      {creating && (
        <CreateOAuthClientDialog
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(client) => {
            setCreating(false);
            if (client.clientSecret) setCreated(client);
            else notify(`Client ${client.clientName || client.clientId} registered.`);
            void clients.reload();
          }}
        />
      )}
      {created?.clientSecret && (
        <SecretDialog
          title="OAuth client registered"
          label="Client secret"
          secret={created.clientSecret}
          onDone={() => setCreated(undefined)}
        >
          <div class="field">
            <span class="label">Client ID</span>
            <div class="secret-row">
              <code class="mono">{created.clientId}</code>
              <CopyButton text={created.clientId} />
            </div>
          </div>
        </SecretDialog>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete “${deleting.clientName || deleting.clientId}”?`}
          confirmLabel="Delete client"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await oauthApi.remove(api, projectId, deleting.clientId);
            notify(`Client ${deleting.clientName || deleting.clientId} deleted.`);
            setDeleting(undefined);
            void clients.reload();
          }}
        >
          <p>Its secrets stop working at once and apps using it can no longer get tokens.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
