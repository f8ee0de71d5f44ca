import type { JSX } from 'preact';
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { createApiClient } from './api/api-client.ts';
import { ConsoleCtx, loadSession, saveSession, type ConsoleContext, type Session } from './session.ts';
import { SignInScreen } from './screens/sign-in-screen.tsx';
import { Shell } from './shell.tsx';

interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'error';
}

export function App(): JSX.Element {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [expiredMessage, setExpiredMessage] = useState<string>();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextToast = useRef(1);

  const signIn = useCallback((s: Session) => {
    saveSession(s);
    setExpiredMessage(undefined);
    setSession(s);
  }, []);

  const signOut = useCallback((message?: string) => {
    saveSession(undefined);
    setSession(undefined);
    setExpiredMessage(message);
  }, []);

  const notify = useCallback((message: string, tone: 'info' | 'error' = 'info') => {
    const id = nextToast.current++;
    setToasts((t) => [...t, { id, message, tone }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), 5000);
  }, []);

  const ctx = useMemo<ConsoleContext | undefined>(() => {
    if (!session) return undefined;
    const api = createApiClient(session.token, (err) => {
      // The token was revoked (or the store reset): back to sign-in, with the server's reason.
      if (err.reason === 'ACCESS_TOKEN_INVALID' || err.reason === 'CREDENTIALS_MISSING') {
        signOut(`You were signed out: ${err.message}`);
      }
    });
    return { session, api, signOut: () => signOut(), notify };
  }, [session]);

  return (
    <>
      {ctx ? (
        <ConsoleCtx.Provider value={ctx}>
          <Shell />
        </ConsoleCtx.Provider>
      ) : (
        <SignInScreen onSignedIn={signIn} notice={expiredMessage} />
      )}
      <div class="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} class={`toast toast-${t.tone}`}>
            {t.message}
          </div>
        ))}
      </div>
    </>
  );
}
