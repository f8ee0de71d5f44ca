import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './api/api-client.ts';

/**
 * The signed-in state. The account token lives in memory and in `sessionStorage` (this tab only,
 * gone when the tab closes), so a reload keeps you signed in but nothing outlives the tab; it is
 * never put in a URL, a cookie or `localStorage`. The strict CSP (own scripts only) is what keeps
 * other code from reading it.
 */
export interface Session {
  token: string;
  accountId: string;
}

const STORAGE_KEY = 'legible.console.session';

export function loadSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const value = raw ? (JSON.parse(raw) as Partial<Session>) : undefined;
    return value?.token && value.accountId ? { token: value.token, accountId: value.accountId } : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  try {
    if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be disabled (private mode policies): the session then lives in memory only.
  }
}

export interface ConsoleContext {
  session: Session;
  api: ApiClient;
  signOut(): void;
  /** Polite screen-reader + visual status message ("Key revoked."). */
  notify(message: string, tone?: 'info' | 'error'): void;
}

export const ConsoleCtx = createContext<ConsoleContext | undefined>(undefined);

export function useConsole(): ConsoleContext {
  const ctx = useContext(ConsoleCtx);
  if (!ctx) throw new Error('useConsole outside the signed-in shell');
  return ctx;
}
