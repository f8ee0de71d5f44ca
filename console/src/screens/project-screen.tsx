import type { JSX } from 'preact';
import { projectsApi } from '../api/endpoints.ts';
import { href, type ProjectTab } from '../router.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { Badge, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { Icon, type IconName } from '../ui/icons.tsx';
import { ApisTab } from './apis-tab.tsx';
import { ApiKeysTab } from './api-keys-tab.tsx';
import { OAuthClientsTab } from './oauth-clients-tab.tsx';
import { UsageTab } from '../usage/usage-tab.tsx';
import { OperationsTab } from './operations-tab.tsx';

const TABS: Array<{ tab: ProjectTab; label: string; icon: IconName }> = [
  { tab: 'apis', label: 'APIs', icon: 'plug' },
  { tab: 'keys', label: 'API keys', icon: 'key' },
  { tab: 'oauth', label: 'OAuth clients', icon: 'shield' },
  { tab: 'usage', label: 'Usage', icon: 'chart' },
  { tab: 'operations', label: 'Operations', icon: 'clock' },
];

export function ProjectScreen({ projectId, tab }: { projectId: string; tab: ProjectTab }): JSX.Element {
  const { api } = useConsole();
  const project = useResource(() => projectsApi.get(api, projectId), [projectId]);
  const p = project.data;
  const active = p?.state === 'ACTIVE';

  return (
    <div class="page">
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href="#/projects">Projects</a>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{p?.displayName || projectId}</span>
      </nav>
      <header class="page-header">
        <div>
          <h1 tabIndex={-1}>
            {p?.displayName || projectId}
            {p && (active ? <Badge tone="success">Active</Badge> : <Badge tone="warning">Pending deletion</Badge>)}
          </h1>
          <p class="page-subtitle">
            Project ID <code class="mono">{projectId}</code>
          </p>
        </div>
        {active && (
          <a class="btn btn-secondary" href={href({ name: 'playground', projectId })}>
            <Icon name="scan" /> Try OCR
          </a>
        )}
      </header>
      <ErrorBanner error={project.error} onRetry={project.reload} />
      {project.loading && !p ? (
        <div class="card">
          <SkeletonRows rows={3} label="Loading project" />
        </div>
      ) : p ? (
        <>
          <nav class="tabs" aria-label="Project sections">
            {TABS.map((t) => (
              <a
                key={t.tab}
                class={`tab ${t.tab === tab ? 'active' : ''}`}
                href={href({ name: 'project', projectId, tab: t.tab })}
                aria-current={t.tab === tab ? 'page' : undefined}
              >
                <Icon name={t.icon} /> {t.label}
              </a>
            ))}
          </nav>
          <section class="tab-panel" aria-label={TABS.find((t) => t.tab === tab)!.label}>
            {tab === 'apis' && <ApisTab projectId={projectId} readOnly={!active} />}
            {tab === 'keys' && <ApiKeysTab projectId={projectId} readOnly={!active} />}
            {tab === 'oauth' && <OAuthClientsTab projectId={projectId} readOnly={!active} />}
            {tab === 'usage' && <UsageTab projectId={projectId} />}
            {tab === 'operations' && <OperationsTab projectId={projectId} />}
          </section>
        </>
      ) : null}
    </div>
  );
}
