import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { apisApi } from '../api/endpoints.ts';
import type { CatalogApi } from '../api/api-types.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { Dialog } from '../ui/dialog.tsx';
import { Badge, Banner, ErrorBanner, SkeletonRows, Spinner } from '../ui/feedback.tsx';
import { Icon, type IconName } from '../ui/icons.tsx';
import { formatNumber } from '../ui/format.ts';

const API_ICONS: Record<string, IconName> = { ocr: 'scan', navigation: 'arrowRight' };
/** In the catalog but not served yet (src/projects/api-catalog.ts): shown, not offered for enabling. */
const RESERVED_APIS: ReadonlySet<string> = new Set(['navigation']);

interface Row extends CatalogApi {
  state: 'ENABLED' | 'DISABLED';
  requestsPerMinute?: number;
}

export function ApisTab({ projectId, readOnly }: { projectId: string; readOnly: boolean }): JSX.Element {
  const { api } = useConsole();
  const rows = useResource(async () => {
    const [catalog, enabled] = await Promise.all([apisApi.catalog(api), apisApi.list(api, projectId)]);
    const byName = new Map(enabled.map((e) => [e.api, e]));
    return catalog.map<Row>((c) => {
      const e = byName.get(c.api);
      return { ...c, state: e?.state ?? 'DISABLED', requestsPerMinute: e?.quota?.requestsPerMinute };
    });
  }, [projectId]);
  const [disabling, setDisabling] = useState<Row>();

  if (rows.loading && !rows.data)
    return (
      <div class="card">
        <SkeletonRows rows={2} label="Loading APIs" />
      </div>
    );
  return (
    <>
      <ErrorBanner error={rows.error} onRetry={rows.reload} />
      <div class="stack">
        {(rows.data ?? []).map((row) => (
          <ApiCard
            key={row.api}
            projectId={projectId}
            row={row}
            readOnly={readOnly}
            onChanged={rows.reload}
            onDisable={() => setDisabling(row)}
          />
        ))}
      </div>
      {disabling && (
        <DisableApiDialog
          projectId={projectId}
          row={disabling}
          onClose={() => setDisabling(undefined)}
          onDone={() => {
            setDisabling(undefined);
            void rows.reload();
          }}
        />
      )}
    </>
  );
}

function ApiCard(props: { projectId: string; row: Row; readOnly: boolean; onChanged(): void; onDisable(): void }): JSX.Element {
  const { api, notify } = useConsole();
  const { row } = props;
  const enabled = row.state === 'ENABLED';
  const reserved = RESERVED_APIS.has(row.api);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [rpm, setRpm] = useState(String(row.requestsPerMinute ?? ''));
  const rpmNumber = Number(rpm);
  const rpmValid = Number.isInteger(rpmNumber) && rpmNumber >= 1 && rpmNumber <= 1_000_000;

  const enable = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await apisApi.enable(api, props.projectId, row.api);
      notify(`${row.title ?? row.api} enabled.`);
      props.onChanged();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };

  const saveRpm = async (e: Event) => {
    e.preventDefault();
    if (!rpmValid) return;
    setBusy(true);
    setError(undefined);
    try {
      await apisApi.setRateLimit(api, props.projectId, row.api, rpmNumber);
      notify(`Rate limit set to ${formatNumber(rpmNumber)} requests per minute.`);
      props.onChanged();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };

  const rpmId = `rpm-${row.api}`;
  return (
    <article class="card api-card" aria-labelledby={`api-${row.api}-title`}>
      <div class="api-card-main">
        <div class={`api-icon ${enabled ? 'on' : ''}`}>
          <Icon name={API_ICONS[row.api] ?? 'plug'} size={20} />
        </div>
        <div class="api-card-text">
          <h2 id={`api-${row.api}-title`} class="card-title">
            {row.title ?? row.api}{' '}
            {enabled ? <Badge tone="success">Enabled</Badge> : reserved ? <Badge>Reserved</Badge> : <Badge>Disabled</Badge>}
          </h2>
          <p class="muted">
            <code class="mono">{row.api}</code>
            {row.description ? ` · ${row.description}` : ''}
          </p>
        </div>
        {!props.readOnly && (!reserved || enabled) && (
          <div class="api-card-actions">
            {enabled ? (
              <button type="button" class="btn btn-secondary" onClick={props.onDisable} disabled={busy}>
                Disable
              </button>
            ) : (
              <button type="button" class="btn btn-primary" onClick={enable} disabled={busy}>
                {busy && <Spinner label="Enabling" />} Enable
              </button>
            )}
          </div>
        )}
      </div>
      <ErrorBanner error={error} />
      {reserved && !enabled && <p class="field-hint">Reserved for a future Legible API: it cannot be enabled yet.</p>}
      {enabled && (
        <form class="api-card-quota" onSubmit={saveRpm}>
          <div class="field field-inline">
            <label for={rpmId}>Rate limit</label>
            <div class="input-group">
              <input
                id={rpmId}
                type="number"
                inputMode="numeric"
                min={1}
                max={1000000}
                step={1}
                value={rpm}
                disabled={props.readOnly}
                aria-describedby={`${rpmId}-hint`}
                aria-invalid={rpmValid ? undefined : 'true'}
                onInput={(e) => setRpm(e.currentTarget.value)}
              />
              <span class="input-suffix">requests / minute</span>
            </div>
          </div>
          {!props.readOnly && (
            <button type="submit" class="btn btn-secondary btn-sm" disabled={busy || !rpmValid || rpmNumber === row.requestsPerMinute}>
              Save
            </button>
          )}
          <p id={`${rpmId}-hint`} class="field-hint">
            Shared by all of the project's keys on every node. Over it, calls get 429 with Retry-After.
          </p>
        </form>
      )}
    </article>
  );
}

function DisableApiDialog(props: { projectId: string; row: Row; onClose(): void; onDone(): void }): JSX.Element {
  const { api, notify } = useConsole();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const submit = async () => {
    setBusy(true);
    try {
      await apisApi.disable(api, props.projectId, props.row.api);
      notify(`${props.row.title ?? props.row.api} disabled.`);
      props.onDone();
    } catch (err) {
      setError(err as Error);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Disable ${props.row.title ?? props.row.api}?`}
      onClose={props.onClose}
      onSubmit={submit}
      footer={
        <>
          <button type="button" class="btn btn-secondary" onClick={props.onClose} data-autofocus>
            Cancel
          </button>
          <button type="submit" class="btn btn-danger" disabled={busy}>
            {busy && <Spinner label="Disabling" />} Disable
          </button>
        </>
      }
    >
      <ErrorBanner error={error} />
      <Banner tone="warning" icon="alert">
        Every key of this project stops working for <code>{props.row.api}</code> on its next request (403 SERVICE_DISABLED). Enabling it
        again restores keys that are allowed this service.
      </Banner>
    </Dialog>
  );
}
