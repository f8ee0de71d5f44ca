import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/projects/demo/keys`): the server serves one `index.html` at `/console`, and the
 * account token never appears in any URL.
 */
export type Route =
  | { name: 'projects' }
  | { name: 'project'; projectId: string; tab: ProjectTab }
  | { name: 'playground'; projectId?: string }
  | { name: 'audit' }
  | { name: 'tokens' };

export const PROJECT_TABS = ['apis', 'keys', 'oauth', 'usage', 'operations'] as const;
export type ProjectTab = (typeof PROJECT_TABS)[number];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  switch (parts[0]) {
    case 'projects':
      if (parts[1]) {
        const tab = (PROJECT_TABS as readonly string[]).includes(parts[2]) ? (parts[2] as ProjectTab) : 'apis';
        return { name: 'project', projectId: parts[1], tab };
      }
      return { name: 'projects' };
    case 'playground':
      return { name: 'playground', projectId: parts[1] };
    case 'audit':
      return { name: 'audit' };
    case 'tokens':
      return { name: 'tokens' };
    default:
      return { name: 'projects' };
  }
}

export function href(route: Route): string {
  switch (route.name) {
    case 'projects':
      return '#/projects';
    case 'project':
      return `#/projects/${encodeURIComponent(route.projectId)}/${route.tab}`;
    case 'playground':
      return route.projectId ? `#/playground/${encodeURIComponent(route.projectId)}` : '#/playground';
    case 'audit':
      return '#/audit';
    case 'tokens':
      return '#/tokens';
  }
}

export function navigate(route: Route): void {
  window.location.hash = href(route).slice(1);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
