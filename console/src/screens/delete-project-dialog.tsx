import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { projectsApi } from '../api/endpoints.ts';
import type { Project } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { Dialog } from '../ui/dialog.tsx';
import { Banner, ErrorBanner, Spinner } from '../ui/feedback.tsx';

/** Deleting is destructive (every key stops at once), so the id must be typed, as in Google Cloud. */
export function DeleteProjectDialog(props: { project: Project; onClose(): void; onDeleted(): void }): JSX.Element {
  const { api, notify } = useConsole();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const id = props.project.projectId;

  const submit = async () => {
    if (typed !== id) return;
    setBusy(true);
    try {
      await projectsApi.remove(api, id);
      notify(`Project ${id} is scheduled for deletion.`);
      props.onDeleted();
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={`Delete project “${props.project.displayName || id}”?`}
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="btn btn-danger" disabled={busy || typed !== id}>
            {busy && <Spinner label="Deleting" />} Delete project
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      <Banner tone="warning" icon="alert">
        All of this project's API keys and OAuth clients stop working immediately. Apps that call Legible with them will get
        <code> 401</code> errors.
      </Banner>
      <div class="field">
        <label for="confirm-project-id">
          Type <code class="mono">{id}</code> to confirm
        </label>
        <input
          id="confirm-project-id"
          class="mono"
          autoComplete="off"
          spellcheck={false}
          value={typed}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
      </div>
    </Dialog>
  );
}
