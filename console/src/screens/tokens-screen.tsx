import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { tokensApi } from '../api/endpoints.ts';
import type { AccountToken, Whoami } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { Badge, ErrorBanner, SkeletonRows, Spinner } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { formatDateTime, formatRelative } from '../ui/format.ts';
import { SecretDialog } from '../ui/secret-dialog.tsx';

/**
 * The account's tokens (`/api/accounts/{account}/tokens`): hints only, a new token shown once,
 * revocation. The token this browser signed in with is marked: revoking it signs this console out
 * at its next request.
 */
export function TokensScreen(): JSX.Element {
  const { api, session, notify } = useConsole();
  const tokens = useResource(async () => {
    const [list, me] = await Promise.all([tokensApi.list(api, session.accountId), api.get<Whoami>('/api/whoami')]);
    return { list, current: me.tokenId };
  }, [session.accountId]);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<Error>();
  const [secret, setSecret] = useState<string>();
  const [revoking, setRevoking] = useState<AccountToken>();

  const create = async () => {
    setCreating(true);
    setCreateError(undefined);
    try {
      const created = await tokensApi.create(api, session.accountId);
      setSecret(created.token);
      void tokens.reload();
    } catch (err) {
      setCreateError(err as Error);
    } finally {
      setCreating(false);
    }
  };

  const list = tokens.data?.list ?? [];
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 tabIndex={-1}>Account tokens</h1>
          <p class="page-subtitle">
            Tokens act for account <code class="mono">{session.accountId}</code> on the setup API and in this console. Each secret is shown
            once.
          </p>
        </div>
        <button type="button" class="btn btn-primary" onClick={create} disabled={creating}>
          {creating ? <Spinner label="Creating token" /> : <Icon name="plus" />} Create token
        </button>
      </header>
      <ErrorBanner error={tokens.error ?? createError} onRetry={tokens.reload} />
      {tokens.loading && !tokens.data ? (
        <div class="card">
          <SkeletonRows rows={3} label="Loading tokens" />
        </div>
      ) : (
        <div class="card table-card">
          <table class="table">
            <caption class="sr-only">Account tokens</caption>
            <thead>
              <tr>
                <th scope="col">Token</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((t) => (
                <tr key={t.tokenId}>
                  <td>
                    <div class="cell-title mono">{t.hint}…</div>
                    <div class="cell-sub mono">
                      {t.tokenId}
                      {t.tokenId === tokens.data?.current ? ' · this browser' : ''}
                    </div>
                  </td>
                  <td title={formatDateTime(t.createTime)}>{formatRelative(t.createTime)}</td>
                  <td>{t.revokeTime ? <Badge>Revoked</Badge> : <Badge tone="success">Active</Badge>}</td>
                  <td class="cell-actions">
                    {!t.revokeTime && (
                      <button
                        type="button"
                        class="btn btn-ghost btn-sm btn-danger-text"
                        onClick={() => setRevoking(t)}
                        aria-label={`Revoke token ${t.tokenId}`}
                      >
                        <Icon name="trash" /> <span class="hide-sm">Revoke</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke token ${revoking.hint}…?`}
          confirmLabel="Revoke token"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await tokensApi.revoke(api, session.accountId, revoking.tokenId);
            notify(`Token ${revoking.hint}… revoked.`);
            setRevoking(undefined);
            void tokens.reload();
          }}
        >
          <p>
            Requests with it are refused from the next one on, on every node.
            {revoking.tokenId === tokens.data?.current && <strong> This browser signed in with it: you will be signed out.</strong>}
          </p>
        </ConfirmDialog>
      )}
      {secret && (
        <SecretDialog title="Account token created" label="Your account token" secret={secret} onDone={() => setSecret(undefined)}>
          <p class="field-hint">
            Use it as <code>Authorization: Bearer …</code> on the setup API, or to sign in here.
          </p>
        </SecretDialog>
      )}
    </div>
  );
}
