import { useCallback, useRef, useState } from 'react';
import { newIdempotencyKey } from '../api/http.js';

export interface Action {
  /**
   * Runs a change. `name` identifies the logical action (e.g. "revoke:12"): a retry after a failure reuses
   * its Idempotency-Key, so the server applies it at most once; a success frees the key.
   */
  run<T>(name: string, work: (idempotencyKey: string) => Promise<T>): Promise<T | undefined>;
  busy: string | null;
  error: unknown;
  clearError(): void;
}

export function useAction(): Action {
  const keys = useRef(new Map<string, string>());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = useCallback(async <T,>(name: string, work: (idempotencyKey: string) => Promise<T>): Promise<T | undefined> => {
    const key = keys.current.get(name) ?? newIdempotencyKey();
    keys.current.set(name, key);
    setBusy(name);
    setError(null);
    try {
      const result = await work(key);
      keys.current.delete(name);
      return result;
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(null);
    }
  }, []);

  return { run, busy, error, clearError: useCallback(() => setError(null), []) };
}
