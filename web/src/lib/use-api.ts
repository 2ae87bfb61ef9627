import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Fetches again (after a change); keeps showing the previous data meanwhile. */
  reload: () => void;
  /** Replaces the data locally (optimistic updates, realtime events). */
  setData: (update: (prev: T | undefined) => T | undefined) => void;
}

/** Runs `load` when `deps` change; the latest answer wins (an older, slower one is dropped). */
export function useApi<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    load().then(
      (d) => {
        if (mine !== seq.current) return;
        setDataState(d);
        setError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (mine !== seq.current) return;
        setError(e instanceof Error ? e : new Error(String(e)));
        setLoading(false);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const setData = useCallback((update: (prev: T | undefined) => T | undefined) => setDataState(update), []);
  return { data, error, loading, reload, setData };
}

/** Calls `fn` every `ms` while mounted and the page is visible. */
export function useInterval(fn: () => void, ms: number): void {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === 'visible') saved.current();
    }, ms);
    return () => clearInterval(id);
  }, [ms]);
}
