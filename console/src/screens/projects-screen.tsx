import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { projectsApi, apisApi } from '../api/endpoints.ts';
import type { Project } from '../api/api-types.ts';
import { href, navigate } from '../router.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { Badge, EmptyState, ErrorBanner, SkeletonRows } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { formatDate, formatRelative } from '../ui/format.ts';
import { CreateProjectDialog } from './create-project-dialog.tsx';
import { DeleteProjectDialog } from './delete-project-dialog.tsx';

export function ProjectsScreen(): JSX.Element {
  const { api, session } = useConsole();
  const projects = useResource(() => projectsApi.list(api, session.accountId), [session.accountId]);
  // Enabled APIs per project, for the table (first 25 projects; the rest show "—").
  const enabled = useResource(async () => {
    const active = (projects.data ?? []).filter((p) => p.state === 'ACTIVE').slice(0, 25);
    const entries = await Promise.all(
      active.map(
        async (p) =>
          [
            p.projectId,
            (await apisApi.list(api, p.projectId).catch(() => [])).filter((a) => a.state === 'ENABLED').map((a) => a.api),
          ] as const,
      ),
    );
    return new Map<string, string[]>(entries);
  }, [projects.data]);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Project>();
  const list = projects.data ?? [];

  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 tabIndex={-1}>Projects</h1>
          <p class="page-subtitle">Each project enables APIs, owns API keys and OAuth clients, and has its own usage and limits.</p>
        </div>
        {list.length > 0 && (
          <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
            <Icon name="plus" /> New project
          </button>
        )}
      </header>

      <ErrorBanner error={projects.error} onRetry={projects.reload} />

      {projects.loading && !projects.data ? (
        <div class="card">
          <SkeletonRows rows={4} label="Loading projects" />
        </div>
      ) : list.length === 0 && !projects.error ? (
        <div class="card">
          <EmptyState
            icon="folder"
            title="Create your first project"
            action={
              <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
                <Icon name="plus" /> New project
              </button>
            }
          >
            A project groups the APIs you enable, the keys that call them and the usage they produce. OCR can be enabled right away.
          </EmptyState>
        </div>
      ) : list.length > 0 ? (
        <div class="card table-card">
          <table class="table">
            <caption class="sr-only">Projects of account {session.accountId}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Project ID</th>
                <th scope="col" class="hide-sm">
                  APIs
                </th>
                <th scope="col">State</th>
                <th scope="col" class="hide-sm">
                  Created
                </th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((project) => (
                <tr key={project.projectId} class={project.state !== 'ACTIVE' ? 'row-muted' : ''}>
                  <td>
                    <a class="row-link" href={href({ name: 'project', projectId: project.projectId, tab: 'apis' })}>
                      {project.displayName || project.projectId}
                    </a>
                  </td>
                  <td>
                    <code class="mono">{project.projectId}</code>
                  </td>
                  <td class="hide-sm">
                    <div class="chips">
                      {(enabled.data?.get(project.projectId) ?? []).map((a) => (
                        <span class="chip" key={a}>
                          {a}
                        </span>
                      ))}
                      {enabled.data && project.state === 'ACTIVE' && (enabled.data.get(project.projectId) ?? []).length === 0 && (
                        <span class="muted">None enabled</span>
                      )}
                    </div>
                  </td>
                  <td>
                    {project.state === 'ACTIVE' ? <Badge tone="success">Active</Badge> : <Badge tone="warning">Pending deletion</Badge>}
                  </td>
                  <td class="hide-sm" title={project.createTime}>
                    {formatDate(project.createTime)} <span class="muted">· {formatRelative(project.createTime)}</span>
                  </td>
                  <td class="cell-actions">
                    {project.state === 'ACTIVE' && (
                      <button
                        type="button"
                        class="btn btn-ghost btn-sm btn-danger-text"
                        onClick={() => setDeleting(project)}
                        aria-label={`Delete project ${project.projectId}`}
                      >
                        <Icon name="trash" /> <span class="hide-sm">Delete</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {list.length > 0 && <QuickStart project={list.find((p) => p.state === 'ACTIVE')} />}

      {creating && (
        <CreateProjectDialog
          onClose={() => setCreating(false)}
          onCreated={(project) => {
            setCreating(false);
            navigate({ name: 'project', projectId: project.projectId, tab: 'apis' });
          }}
          create={async (body, enableOcr) => {
            const project = await projectsApi.create(api, session.accountId, body);
            if (enableOcr) await apisApi.enable(api, project.projectId, 'ocr');
            return project;
          }}
        />
      )}
      {deleting && (
        <DeleteProjectDialog
          project={deleting}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => {
            setDeleting(undefined);
            void projects.reload();
          }}
        />
      )}
    </div>
  );
}

/** The three steps from a project to a first OCR call, linked to where each happens. */
function QuickStart({ project }: { project?: Project }): JSX.Element | null {
  if (!project) return null;
  const id = project.projectId;
  const steps = [
    {
      title: 'Enable the OCR API',
      text: 'Turn on the APIs the project may use, and set its rate limit.',
      link: href({ name: 'project', projectId: id, tab: 'apis' }),
      cta: 'APIs',
    },
    {
      title: 'Create a restricted API key',
      text: "Limit it to OCR and to your servers' IPs, your websites or your apps.",
      link: href({ name: 'project', projectId: id, tab: 'keys' }),
      cta: 'API keys',
    },
    {
      title: 'Read your first image',
      text: 'Try it here, then copy the curl command for your app.',
      link: href({ name: 'playground', projectId: id }),
      cta: 'Playground',
    },
  ];
  return (
    <section class="quickstart" aria-labelledby="quickstart-title">
      <h2 id="quickstart-title" class="section-title">
        Quick start with <code class="mono">{id}</code>
      </h2>
      <ol class="quickstart-steps">
        {steps.map((step, i) => (
          <li key={step.title} class="card quickstart-step">
            <span class="step-number" aria-hidden="true">
              {i + 1}
            </span>
            <div>
              <h3>{step.title}</h3>
              <p class="muted">{step.text}</p>
              <a href={step.link} class="step-link">
                {step.cta} <Icon name="arrowRight" size={14} />
              </a>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
