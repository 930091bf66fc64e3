import { useEffect, useRef, useState } from 'react';
import { getCaseProcessing, type CaseProcessing } from '../api/processing.js';
import { isActive } from '../domain/processing.js';

/** While a step runs or a document waits for conversion; otherwise a slow check for work started elsewhere. */
export const PROCESSING_POLL_MS = 1000;
export const PROCESSING_IDLE_POLL_MS = 10_000;

/**
 * A case's automatic processing (GET /api/v1/cases/{id}/processing), kept current by polling: once a second
 * while anything runs, every ten seconds otherwise, and at once when `refreshKey` changes (an upload, an unlock).
 */
export function useCaseProcessing(caseId: string, refreshKey: unknown): { progress: CaseProcessing | null; error: unknown } {
  const [progress, setProgress] = useState<CaseProcessing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const activeRef = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    let timer: number | undefined;
    const poll = async () => {
      try {
        const fresh = await getCaseProcessing(caseId, controller.signal);
        if (controller.signal.aborted) return;
        activeRef.current = isActive(fresh);
        setProgress(fresh);
        setError(null);
      } catch (failure) {
        // A failed poll is shown and retried on the next tick.
        if (controller.signal.aborted) return;
        setError(failure);
      }
      timer = window.setTimeout(() => void poll(), activeRef.current ? PROCESSING_POLL_MS : PROCESSING_IDLE_POLL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [caseId, refreshKey]);

  return { progress, error };
}
