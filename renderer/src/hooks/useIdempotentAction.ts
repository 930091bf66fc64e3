import { useCallback } from 'react';
import { useAction } from './useAction.js';

/** One form's one action: `run(body, send)` with a key per attempt (api/idempotency.ts). */
export function useIdempotentAction() {
  const action = useAction();
  const run = useCallback(<T,>(body: unknown, send: (key: string) => Promise<T>) => action.run('submit', send, body), [action]);
  return { run, busy: action.busy !== null, error: action.error, clearError: action.clearError };
}
