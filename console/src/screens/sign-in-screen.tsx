import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { createApiClient, ApiError } from '../api/api-client.ts';
import type { Whoami } from '../api/api-types.ts';
import type { Session } from '../session.ts';
import { Icon, Logo } from '../ui/icons.tsx';
import { Spinner } from '../ui/feedback.tsx';

/** Signing in = presenting an account token; `GET /api/whoami` says which account it belongs to. */
export function SignInScreen({ onSignedIn, notice }: { onSignedIn(s: Session): void; notice?: string }): JSX.Element {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const value = token.trim();
    if (!value) {
      setError('Enter your account token.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const me = await createApiClient(value).get<Whoami>('/api/whoami');
      onSignedIn({ token: value, accountId: me.accountId });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Sign-in failed.');
      setBusy(false);
    }
  };

  return (
    <div class="signin">
      <aside class="signin-aside" aria-hidden="true">
        <div class="signin-brand">
          <Logo size={32} />
          <span>Legible</span>
        </div>
        <div class="signin-pitch">
          <h2>Text recognition you run yourself.</h2>
          <p>Google-Vision-compatible OCR with projects, restricted API keys and usage you can see — on your own hardware.</p>
          <ul>
            <li>
              <Icon name="scan" /> Drop-in <code>images:annotate</code> endpoint
            </li>
            <li>
              <Icon name="key" /> Keys scoped to services, IPs, referrers and apps
            </li>
            <li>
              <Icon name="chart" /> Per-project rate limits and usage
            </li>
          </ul>
        </div>
        <pre class="signin-code">
          <span class="c-dim">$ </span>
          {
            'curl $LEGIBLE_URL/api/vision/v1/images:annotate \\\n    -H "Authorization: Bearer $LEGIBLE_API_KEY" \\\n    -H \'Content-Type: application/json\' \\\n    -d @wakeupcat.json\n'
          }
          <span class="c-dim">{'{"responses":[{"textAnnotations":[{"locale":"en",\n  "description":'}</span>
          <span class="c-str">"Wake up human!\n"</span>
          <span class="c-dim">, …</span>
        </pre>
      </aside>
      <main class="signin-main">
        <form class="signin-card" onSubmit={submit} aria-labelledby="signin-title">
          <div class="signin-card-brand">
            <Logo size={36} />
          </div>
          <h1 id="signin-title">Sign in to Legible Console</h1>
          <p class="muted">Use an account token. Operators create one with the CLI:</p>
          <pre class="inline-code">npx legible accounts create acme --json</pre>
          {notice && (
            <div class="banner banner-warning" role="status">
              <Icon name="info" />
              <div class="banner-text">{notice}</div>
            </div>
          )}
          <div class="field">
            <label for="account-token">Account token</label>
            <input
              id="account-token"
              name="token"
              type="password"
              autoComplete="off"
              spellcheck={false}
              placeholder="lgb_at_…"
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? 'signin-error' : 'signin-hint'}
              // biome-ignore lint/a11y/noAutofocus: the sign-in screen has one field, and typing the token is the only thing to do
              autoFocus
            />
            {error ? (
              <p id="signin-error" class="field-error" role="alert">
                {error}
              </p>
            ) : (
              <p id="signin-hint" class="field-hint">
                Kept in this browser tab only; never sent anywhere but this server.
              </p>
            )}
          </div>
          <button class="btn btn-primary btn-block" type="submit" disabled={busy}>
            {busy ? <Spinner label="Signing in" /> : null}
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <p class="signin-foot muted">
            <a href="/docs" target="_blank" rel="noreferrer">
              API reference
            </a>
          </p>
        </form>
      </main>
    </div>
  );
}
