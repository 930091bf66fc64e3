import { useEffect } from 'react';
import { getCaseProcessing, type CaseProcessing } from '../api/processing.js';
import { isActive } from '../domain/processing.js';
import { useLoad } from './useLoad.js';

/** While a step runs or a document waits for conversion; otherwise a slow check for work started elsewhere. */
export const PROCESSING_POLL_MS = 1000;
export const PROCESSING_IDLE_POLL_MS = 10_000;

/**
 * A case's automatic processing (GET /api/v1/cases/{id}/processing), kept current by polling: once a second
 * while anything runs, every ten seconds otherwise, and at once when `refreshKey` changes (an upload, an unlock).
 * A failed poll is shown and retried on the next tick.
 */
export function useCaseProcessing(caseId: string, refreshKey: unknown): { progress: CaseProcessing | null; error: unknown } {
  const { data, error, loading, reload } = useLoad((signal) => getCaseProcessing(caseId, signal), [caseId, refreshKey]);
  useEffect(() => {
    if (loading) return;
    const timer = window.setTimeout(reload, data && isActive(data) ? PROCESSING_POLL_MS : PROCESSING_IDLE_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [data, error, loading, reload]);
  return { progress: data, error };
}
