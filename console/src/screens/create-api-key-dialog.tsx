import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { apiKeysApi } from '../api/endpoints.ts';
import type { AndroidApp, ApiKey, ApiName, CatalogApi, CreatedApiKey } from '../api/api-types.ts';
import { buildCreateKeyBody, formOf, restrictionProblems, type AppRestriction } from './create-key-body.ts';
import { useConsole } from '../session.ts';
import { Dialog } from '../ui/dialog.tsx';
import { ErrorBanner, Spinner } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';

const APP_RESTRICTIONS: Array<{ value: AppRestriction; label: string; hint: string }> = [
  { value: 'none', label: 'None', hint: 'Usable from anywhere' },
  { value: 'ips', label: 'IP addresses', hint: 'Servers, cron jobs' },
  { value: 'referrers', label: 'Websites', hint: 'HTTP referrers' },
  { value: 'android', label: 'Android apps', hint: 'Package + SHA-1' },
  { value: 'ios', label: 'iOS apps', hint: 'Bundle IDs' },
];

const EXPIRY = [
  { value: 'never', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'custom', label: 'On a date…' },
];

/** Creates a key, or (with `editing`) changes an existing key's name and restrictions in place. */
export function CreateApiKeyDialog(
  props: {
    projectId: string;
    services: Array<CatalogApi & { enabled: boolean }>;
    onClose(): void;
  } & ({ editing?: undefined; onCreated(key: CreatedApiKey): void } | { editing: ApiKey; onSaved(key: ApiKey): void }),
): JSX.Element {
  const { api } = useConsole();
  const initial = formOf(props.editing);
  const [displayName, setDisplayName] = useState(initial.displayName);
  const [services, setServices] = useState<ApiName[]>(() => initial.services ?? props.services.filter((s) => s.enabled).map((s) => s.api));
  const [kind, setKind] = useState<AppRestriction>(initial.kind);
  const [ips, setIps] = useState(initial.ips);
  const [referrers, setReferrers] = useState(initial.referrers);
  const [android, setAndroid] = useState<AndroidApp[]>(initial.android);
  const [ios, setIos] = useState(initial.ios);
  const problem = restrictionProblems(kind, { ips, referrers, android, ios });
  const editing = props.editing;
  const [expiry, setExpiry] = useState('never');
  const [customDate, setCustomDate] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const toggleService = (name: ApiName, on: boolean) => setServices((s) => (on ? [...s, name] : s.filter((x) => x !== name)));

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = buildCreateKeyBody({ displayName, services, kind, ips, referrers, android, ios, expiry, customDate });
      if (props.editing) {
        const { expireTime: _unchanged, ...changes } = body;
        props.onSaved(
          await apiKeysApi.update(api, props.projectId, props.editing.keyId, {
            ...changes,
            displayName: displayName.trim() || props.editing.keyId,
          }),
        );
      } else props.onCreated(await apiKeysApi.create(api, props.projectId, body));
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };

  const today = new Date().toISOString().slice(0, 10);
  return (
    <Dialog
      title={editing ? `Edit API key “${editing.displayName || editing.keyId}”` : 'Create API key'}
      size="wide"
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy || problem !== undefined}>
            {busy && <Spinner label={editing ? 'Saving key' : 'Creating key'} />} {editing ? 'Save' : 'Create key'}
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      <div class="field">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          maxLength={100}
          placeholder="Production backend"
          value={displayName}
          onInput={(e) => setDisplayName(e.currentTarget.value)}
        />
      </div>

      <fieldset class="fieldset">
        <legend>API restrictions</legend>
        <p class="field-hint">The services this key may call. APIs enabled later are not added to existing keys.</p>
        <div class="checks">
          {props.services.map((s) => (
            <label class="check" key={s.api}>
              <input type="checkbox" checked={services.includes(s.api)} onChange={(e) => toggleService(s.api, e.currentTarget.checked)} />
              <span>
                <span class="check-line">
                  <strong>{s.title ?? s.api}</strong> <code class="mono muted">{s.api}</code>
                </span>
                {!s.enabled && <span class="field-hint">Not enabled on this project yet</span>}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset class="fieldset">
        <legend>Application restrictions</legend>
        <div class="radio-cards radio-cards-5">
          {APP_RESTRICTIONS.map((r) => (
            <label class="radio-card" key={r.value}>
              <input type="radio" name="app-restriction" value={r.value} checked={kind === r.value} onChange={() => setKind(r.value)} />
              <span>
                {r.label}
                <small>{r.hint}</small>
              </span>
            </label>
          ))}
        </div>
        {kind === 'ips' && (
          <div class="field">
            <label for="key-ips">Allowed IP addresses</label>
            <textarea
              id="key-ips"
              class="mono"
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={problem ? 'key-restriction-problem' : undefined}
              rows={3}
              placeholder={'203.0.113.7\n198.51.100.0/24\n2001:db8::/32'}
              value={ips}
              onInput={(e) => setIps(e.currentTarget.value)}
            />
            <p class="field-hint">One IPv4/IPv6 address or CIDR range per line.</p>
          </div>
        )}
        {kind === 'referrers' && (
          <div class="field">
            <label for="key-referrers">Allowed websites</label>
            <textarea
              id="key-referrers"
              class="mono"
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={problem ? 'key-restriction-problem' : undefined}
              rows={3}
              placeholder={'https://app.example.com/*\n*.example.com'}
              value={referrers}
              onInput={(e) => setReferrers(e.currentTarget.value)}
            />
            <p class="field-hint">
              One pattern per line; <code>*.example.com</code> matches subdomains.
            </p>
          </div>
        )}
        {kind === 'android' && (
          <div class="android-list">
            {android.map((app, i) => (
              <div class="android-row" key={i}>
                <div class="field">
                  <label for={`android-pkg-${i}`}>Package name</label>
                  <input
                    id={`android-pkg-${i}`}
                    class="mono"
                    placeholder="com.example.app"
                    value={app.packageName}
                    onInput={(e) => setAndroid(android.map((a, j) => (j === i ? { ...a, packageName: e.currentTarget.value } : a)))}
                  />
                </div>
                <div class="field">
                  <label for={`android-sha-${i}`}>SHA-1 certificate fingerprint</label>
                  <input
                    id={`android-sha-${i}`}
                    class="mono"
                    placeholder="DA:39:A3:EE:5E:6B:…"
                    value={app.sha1Fingerprint}
                    onInput={(e) => setAndroid(android.map((a, j) => (j === i ? { ...a, sha1Fingerprint: e.currentTarget.value } : a)))}
                  />
                </div>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Remove Android app ${i + 1}`}
                  disabled={android.length === 1}
                  onClick={() => setAndroid(android.filter((_, j) => j !== i))}
                >
                  <Icon name="trash" />
                </button>
              </div>
            ))}
            <button
              type="button"
              class="btn btn-ghost btn-sm"
              onClick={() => setAndroid([...android, { packageName: '', sha1Fingerprint: '' }])}
            >
              <Icon name="plus" /> Add an app
            </button>
          </div>
        )}
        {kind === 'ios' && (
          <div class="field">
            <label for="key-ios">Allowed bundle IDs</label>
            <textarea
              id="key-ios"
              class="mono"
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={problem ? 'key-restriction-problem' : undefined}
              rows={3}
              placeholder="com.example.app"
              value={ios}
              onInput={(e) => setIos(e.currentTarget.value)}
            />
            <p class="field-hint">One bundle identifier per line.</p>
          </div>
        )}
        {problem && (
          <p class="field-error" role="alert" id="key-restriction-problem">
            {problem}
          </p>
        )}
      </fieldset>

      {editing ? (
        <p class="field-hint">Changes apply from the next request on, on every node. The expiry stays as it is.</p>
      ) : (
        <div class="field-row">
          <div class="field">
            <label for="key-expiry">Expiration</label>
            <select id="key-expiry" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
              {EXPIRY.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          </div>
          {expiry === 'custom' && (
            <div class="field">
              <label for="key-expiry-date">Expires at the end of</label>
              <input
                id="key-expiry-date"
                type="date"
                min={today}
                required
                value={customDate}
                onInput={(e) => setCustomDate(e.currentTarget.value)}
              />
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
