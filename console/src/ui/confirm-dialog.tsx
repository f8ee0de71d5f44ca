import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Dialog } from './dialog.tsx';
import { ErrorBanner, Spinner } from './feedback.tsx';

/** "Are you sure?" for destructive actions; focus starts on Cancel; the API's error is shown in place. */
export function ConfirmDialog(props: {
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onClose(): void;
  onConfirm(): Promise<void>;
}): JSX.Element {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose} data-autofocus>
            Cancel
          </button>
          <button type="submit" class="btn btn-danger" disabled={busy}>
            {busy && <Spinner label="Working" />} {props.confirmLabel}
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      {props.children}
    </Dialog>
  );
}
