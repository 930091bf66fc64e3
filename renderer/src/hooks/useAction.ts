import { useCallback, useRef, useState } from 'react';
import { AttemptKeys } from '../api/idempotency.js';

export interface Action {
  /**
   * Runs a change. `name` identifies the logical action (e.g. "revoke:12") and `body` what is sent: sending
   * the same again after no answer reuses the Idempotency-Key (applied at most once); an answer or a different
   * body starts a new attempt (api/idempotency.ts).
   */
  run<T>(name: string, work: (idempotencyKey: string) => Promise<T>, body?: unknown): Promise<T | undefined>;
  busy: string | null;
  error: unknown;
  clearError(): void;
}

export function useAction(): Action {
  const keys = useRef(new AttemptKeys());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = useCallback(async <T,>(name: string, work: (idempotencyKey: string) => Promise<T>, body?: unknown): Promise<T | undefined> => {
    setBusy(name);
    setError(null);
    try {
      return await keys.current.send(name, body ?? null, work);
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(null);
    }
  }, []);

  return { run, busy, error, clearError: useCallback(() => setError(null), []) };
}
