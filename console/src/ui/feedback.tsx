import type { ComponentChildren, JSX } from 'preact';
import { Icon, type IconName } from './icons.tsx';

/** An error from the API, shown with the server's own message. */
export function ErrorBanner({ error, onRetry }: { error: Error | string | undefined; onRetry?: () => void }): JSX.Element | null {
  if (!error) return null;
  const message = typeof error === 'string' ? error : error.message;
  return (
    <div class="banner banner-error" role="alert">
      <Icon name="alert" />
      <div class="banner-text">{message}</div>
      {onRetry && (
        <button type="button" class="btn btn-ghost btn-sm" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Banner({
  tone = 'info',
  icon = 'info',
  children,
}: {
  tone?: 'info' | 'warning';
  icon?: IconName;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <div class={`banner banner-${tone}`}>
      <Icon name={icon} />
      <div class="banner-text">{children}</div>
    </div>
  );
}

export function EmptyState(props: {
  icon: IconName;
  title: string;
  children?: ComponentChildren;
  action?: ComponentChildren;
}): JSX.Element {
  return (
    <div class="empty-state">
      <div class="empty-icon">
        <Icon name={props.icon} size={22} />
      </div>
      <h3 class="empty-title">{props.title}</h3>
      {props.children && <p class="empty-text">{props.children}</p>}
      {props.action && <div class="empty-action">{props.action}</div>}
    </div>
  );
}

export function Spinner({ label = 'Loading' }: { label?: string }): JSX.Element {
  return <span class="spinner" role="status" aria-label={label} />;
}

/** Placeholder rows while a table loads, announced once as "Loading…". */
export function SkeletonRows({ rows = 3, label = 'Loading' }: { rows?: number; label?: string }): JSX.Element {
  return (
    <div class="skeleton-list" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div class="skeleton-row" key={i}>
          <span class="skeleton skeleton-w40" />
          <span class="skeleton skeleton-w20" />
          <span class="skeleton skeleton-w15" />
        </div>
      ))}
    </div>
  );
}

export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'success' | 'warning' | 'danger' | 'accent';
  children: ComponentChildren;
}): JSX.Element {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}
