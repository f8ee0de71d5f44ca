import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { oauthApi } from '../api/endpoints.ts';
import type { AuthMethod, GrantType, OAuthClientCreated } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { Dialog } from '../ui/dialog.tsx';
import { ErrorBanner, Spinner } from '../ui/feedback.tsx';
import { splitList } from '../ui/format.ts';

const GRANTS: Array<{ value: GrantType; label: string; hint: string }> = [
  { value: 'authorization_code', label: 'Authorization code', hint: 'Users sign in (with PKCE)' },
  { value: 'refresh_token', label: 'Refresh token', hint: 'Long-lived sessions' },
  { value: 'client_credentials', label: 'Client credentials', hint: 'Server to server' },
];

const AUTH_METHODS: Array<{ value: AuthMethod; label: string }> = [
  { value: 'client_secret_basic', label: 'Client secret (HTTP Basic)' },
  { value: 'client_secret_post', label: 'Client secret (form body)' },
  { value: 'none', label: 'None — public client (PKCE only)' },
];

export function CreateOAuthClientDialog(props: {
  projectId: string;
  onClose(): void;
  onCreated(client: OAuthClientCreated): void;
}): JSX.Element {
  const { api } = useConsole();
  const [clientName, setClientName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [grants, setGrants] = useState<GrantType[]>(['authorization_code']);
  const [method, setMethod] = useState<AuthMethod>('client_secret_basic');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const redirectUris = splitList(redirects);
      props.onCreated(
        await oauthApi.create(api, props.projectId, {
          ...(clientName.trim() ? { clientName: clientName.trim() } : {}),
          ...(redirectUris.length ? { redirectUris } : {}),
          grantTypes: grants,
          tokenEndpointAuthMethod: method,
        }),
      );
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Register OAuth client"
      size="wide"
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy || grants.length === 0}>
            {busy && <Spinner label="Registering" />} Register client
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      <div class="field">
        <label for="client-name">Client name</label>
        <input
          id="client-name"
          maxLength={200}
          placeholder="Receipts web app"
          value={clientName}
          onInput={(e) => setClientName(e.currentTarget.value)}
        />
        <p class="field-hint">Shown to users on consent screens.</p>
      </div>
      <div class="field">
        <label for="client-redirects">Redirect URIs</label>
        <textarea
          id="client-redirects"
          class="mono"
          rows={3}
          placeholder={'https://app.example.com/oauth/callback\nhttp://127.0.0.1:5173/callback'}
          value={redirects}
          onInput={(e) => setRedirects(e.currentTarget.value)}
        />
        <p class="field-hint">One per line, matched exactly. https, or http on loopback only. Required for the authorization code grant.</p>
      </div>
      <fieldset class="fieldset">
        <legend>Grant types</legend>
        <div class="checks">
          {GRANTS.map((g) => (
            <label class="check" key={g.value}>
              <input
                type="checkbox"
                checked={grants.includes(g.value)}
                onChange={(e) => setGrants(e.currentTarget.checked ? [...grants, g.value] : grants.filter((x) => x !== g.value))}
              />
              <span>
                <strong>{g.label}</strong> <span class="field-hint">{g.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="field">
        <label for="client-auth">Token endpoint authentication</label>
        <select id="client-auth" value={method} onChange={(e) => setMethod(e.currentTarget.value as AuthMethod)}>
          {AUTH_METHODS.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
    </Dialog>
  );
}
