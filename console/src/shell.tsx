import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { href, useRoute, type Route } from './router.ts';
import { useConsole } from './session.ts';
import { Icon, Logo, type IconName } from './ui/icons.tsx';
import { ProjectsScreen } from './screens/projects-screen.tsx';
import { ProjectScreen } from './screens/project-screen.tsx';
import { AuditScreen } from './screens/audit-screen.tsx';
import { TokensScreen } from './screens/tokens-screen.tsx';
import { PlaygroundScreen } from './playground/playground-screen.tsx';

const NAV: Array<{ label: string; icon: IconName; route: Route; matches: Route['name'][] }> = [
  { label: 'Projects', icon: 'folder', route: { name: 'projects' }, matches: ['projects', 'project'] },
  { label: 'OCR playground', icon: 'scan', route: { name: 'playground' }, matches: ['playground'] },
  { label: 'Audit log', icon: 'list', route: { name: 'audit' }, matches: ['audit'] },
  { label: 'Account tokens', icon: 'key', route: { name: 'tokens' }, matches: ['tokens'] },
];

function titleOf(route: Route): string {
  switch (route.name) {
    case 'projects':
      return 'Projects';
    case 'project':
      return route.projectId;
    case 'playground':
      return 'OCR playground';
    case 'audit':
      return 'Audit log';
    case 'tokens':
      return 'Account tokens';
  }
}

/** The signed-in frame: sidebar navigation (a drawer on phones), the account, the current screen. */
export function Shell(): JSX.Element {
  const route = useRoute();
  const { session, signOut } = useConsole();
  const [navOpen, setNavOpen] = useState(false);
  const main = useRef<HTMLElement>(null);

  // On navigation to another screen: close the drawer and move focus to the new screen's heading,
  // so screen readers announce it (tab changes within a project keep focus on the tab).
  const screenKey = route.name === 'project' ? `project:${route.projectId}` : route.name;
  const previousScreen = useRef(screenKey);
  useEffect(() => {
    setNavOpen(false);
    document.title = `${titleOf(route)} · Legible Console`;
    if (previousScreen.current === screenKey) return;
    previousScreen.current = screenKey;
    main.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [screenKey, route.name === 'project' ? route.tab : '']);

  return (
    <div class={`shell ${navOpen ? 'nav-open' : ''}`}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="mobile-bar">
        <button
          type="button"
          class="icon-button"
          aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
          aria-expanded={navOpen}
          aria-controls="sidebar"
          onClick={() => setNavOpen(!navOpen)}
        >
          <Icon name={navOpen ? 'close' : 'menu'} size={20} />
        </button>
        <span class="brand-name">
          <Logo size={24} /> Legible
        </span>
        <span class="account-chip account-chip-sm">{session.accountId}</span>
      </header>
      <nav id="sidebar" class="sidebar" aria-label="Console">
        <a class="brand" href="#/projects">
          <Logo size={28} />
          <span class="brand-name">Legible</span>
          <span class="brand-tag">Console</span>
        </a>
        <ul class="nav-list">
          {NAV.map((item) => {
            const active = item.matches.includes(route.name);
            return (
              <li key={item.label}>
                <a class={`nav-item ${active ? 'active' : ''}`} href={href(item.route)} aria-current={active ? 'page' : undefined}>
                  <Icon name={item.icon} />
                  {item.label}
                </a>
              </li>
            );
          })}
          <li>
            <a class="nav-item" href="/docs" target="_blank" rel="noreferrer">
              <Icon name="book" />
              API reference
              <Icon name="external" size={12} class="nav-external" />
            </a>
          </li>
        </ul>
        <div class="sidebar-foot">
          <div class="account">
            <div class="avatar" aria-hidden="true">
              {session.accountId.slice(0, 1).toUpperCase()}
            </div>
            <div class="account-text">
              <span class="account-label">Account</span>
              <span class="account-id">{session.accountId}</span>
            </div>
          </div>
          <button type="button" class="btn btn-ghost btn-sm btn-block" onClick={signOut}>
            <Icon name="logout" />
            Sign out
          </button>
        </div>
      </nav>
      <div class="scrim" onClick={() => setNavOpen(false)} aria-hidden="true" />
      <main id="main" class="main" ref={main} tabIndex={-1}>
        {route.name === 'projects' && <ProjectsScreen />}
        {route.name === 'project' && <ProjectScreen key={route.projectId} projectId={route.projectId} tab={route.tab} />}
        {route.name === 'playground' && <PlaygroundScreen projectId={route.projectId} />}
        {route.name === 'audit' && <AuditScreen />}
        {route.name === 'tokens' && <TokensScreen />}
      </main>
    </div>
  );
}
