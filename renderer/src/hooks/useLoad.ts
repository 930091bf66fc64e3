import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  /** Loads again; the previous data stays on screen meanwhile. */
  reload(): void;
  /** Replaces the data locally (after a change the server confirmed). */
  setData(update: T | ((previous: T | null) => T)): void;
}

/** Loads data for a view, cancelling the request when the inputs change or the view goes away. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const [data, setDataState] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        setError(reason);
        setLoading(false);
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...inputs, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const setData = useCallback((update: T | ((previous: T | null) => T)) => {
    setDataState((previous) => (typeof update === 'function' ? (update as (previous: T | null) => T)(previous) : update));
  }, []);
  return { data, error, loading, reload, setData };
}
