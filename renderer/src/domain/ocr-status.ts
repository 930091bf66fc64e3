// The application API's OCR status answer, read the way its spec says the client reads it (pure).

const COMPLETED = new Set(['completed', 'complete', 'success', 'finished', 'succeeded', 'done']);
const FAILED = new Set(['failed', 'error', 'cancelled', 'canceled', 'failure']);

export type OcrPhase = 'running' | 'completed' | 'failed';

export interface OcrStatus {
  phase: OcrPhase;
  status: string;
  progress: number | null;
  message: string | null;
}

/** Reads the status wherever the answer puts it (top level or under `data`), as the spec's client does. */
export function readOcrStatus(answer: Record<string, unknown>): OcrStatus {
  const data = (typeof answer.data === 'object' && answer.data !== null ? answer.data : {}) as Record<string, unknown>;
  const raw = answer.status ?? data.status ?? '';
  const status = String(raw).toLowerCase();
  const progressValue = answer.progress ?? data.progress;
  const messageValue = answer.error_message ?? data.error_message ?? null;
  return {
    phase: COMPLETED.has(status) ? 'completed' : FAILED.has(status) ? 'failed' : 'running',
    status,
    progress: typeof progressValue === 'number' ? progressValue : null,
    message: typeof messageValue === 'string' ? messageValue : null,
  };
}

