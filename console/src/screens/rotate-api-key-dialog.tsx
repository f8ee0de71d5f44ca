import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { apiKeysApi } from '../api/endpoints.ts';
import type { ApiKey, RotatedApiKey } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { Dialog } from '../ui/dialog.tsx';
import { ErrorBanner, Spinner } from '../ui/feedback.tsx';
import { formatDateTime } from '../ui/format.ts';

const GRACE = [
  { seconds: 0, label: 'Immediately' },
  { seconds: 3600, label: 'After 1 hour' },
  { seconds: 86400, label: 'After 24 hours' },
  { seconds: 604800, label: 'After 7 days' },
];

/** Rotation issues a new secret; the old one keeps working for the chosen grace period (Stripe's "roll key"). */
export function RotateApiKeyDialog(props: {
  projectId: string;
  apiKey: ApiKey;
  onClose(): void;
  onRotated(key: RotatedApiKey, note: string): void;
}): JSX.Element {
  const { api } = useConsole();
  const [grace, setGrace] = useState(86400);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const key = await apiKeysApi.rotate(api, props.projectId, props.apiKey.keyId, grace);
      props.onRotated(
        key,
        grace === 0
          ? 'The previous secret no longer works.'
          : `The previous secret keeps working until ${formatDateTime(key.previousKeyExpireTime)}.`,
      );
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={`Rotate “${props.apiKey.displayName || props.apiKey.keyId}”`}
      description="A new secret is issued for the same key: its restrictions, usage and id stay."
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {busy && <Spinner label="Rotating" />} Rotate key
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      <fieldset class="fieldset">
        <legend>
          Old secret <code class="mono">{props.apiKey.hint}…</code> stops working
        </legend>
        <div class="radio-cards">
          {GRACE.map((g) => (
            <label class="radio-card" key={g.seconds}>
              <input type="radio" name="grace" value={g.seconds} checked={grace === g.seconds} onChange={() => setGrace(g.seconds)} />
              <span>{g.label}</span>
            </label>
          ))}
        </div>
        <p class="field-hint">Give your deployments time to pick up the new secret before the old one is refused.</p>
      </fieldset>
    </Dialog>
  );
}
