import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Project } from '../api/api-types.ts';
import { Dialog } from '../ui/dialog.tsx';
import { ErrorBanner, Spinner } from '../ui/feedback.tsx';
import { projectIdProblem, suggestProjectId } from './project-id.ts';

export function CreateProjectDialog(props: {
  onClose(): void;
  onCreated(project: Project): void;
  create(body: { projectId?: string; displayName?: string }, enableOcr: boolean): Promise<Project>;
}): JSX.Element {
  const [displayName, setDisplayName] = useState('');
  const [projectId, setProjectId] = useState('');
  const [idEdited, setIdEdited] = useState(false);
  const [enableOcr, setEnableOcr] = useState(true);
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const idProblem = projectIdProblem(projectId);

  const submit = async () => {
    if (idProblem) return;
    setBusy(true);
    setError(undefined);
    try {
      const body = { ...(displayName.trim() ? { displayName: displayName.trim() } : {}), ...(projectId ? { projectId } : {}) };
      props.onCreated(await props.create(body, enableOcr));
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="New project"
      description="Projects are how Legible separates apps: each has its own APIs, keys, limits and usage."
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy || Boolean(idProblem)}>
            {busy && <Spinner label="Creating project" />} Create project
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      <div class="field">
        <label for="project-name">Project name</label>
        <input
          id="project-name"
          maxLength={100}
          placeholder="Receipts app"
          value={displayName}
          onInput={(e) => {
            const v = e.currentTarget.value;
            setDisplayName(v);
            if (!idEdited) setProjectId(v.trim() ? suggestProjectId(v) : '');
          }}
        />
      </div>
      <div class="field">
        <label for="project-id">Project ID</label>
        <input
          id="project-id"
          class="mono"
          maxLength={30}
          spellcheck={false}
          autoComplete="off"
          placeholder="generated when left empty"
          value={projectId}
          aria-invalid={idProblem ? 'true' : undefined}
          aria-describedby="project-id-hint"
          onInput={(e) => {
            setIdEdited(true);
            setProjectId(e.currentTarget.value.toLowerCase());
          }}
        />
        <p id="project-id-hint" class={idProblem ? 'field-error' : 'field-hint'}>
          {idProblem ?? 'Globally unique and permanent. 6–30 lowercase letters, digits or hyphens.'}
        </p>
      </div>
      <label class="check">
        <input type="checkbox" checked={enableOcr} onChange={(e) => setEnableOcr(e.currentTarget.checked)} />
        <span>
          <strong>Enable the OCR API</strong>
          <span class="field-hint">
            Lets the project's keys call <code>images:annotate</code>. You can change this later.
          </span>
        </span>
      </label>
    </Dialog>
  );
}
