import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  reload(): Promise<void>;
}

/** Loads `load()` when `deps` change; answers that arrive after a newer request are dropped. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const data = await load();
      if (mine === generation.current) setState({ data, loading: false });
    } catch (err) {
      if (mine === generation.current) setState((s) => ({ data: s.data, error: err as Error, loading: false }));
    }
  }, deps);
  useEffect(() => {
    void run();
  }, [run]);
  return { ...state, reload: run };
}
