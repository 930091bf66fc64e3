import type { QueueItem, QueueResult } from '../../../main/common/schemas/review-queue.js';
import { request, type Single } from './http.js';

// The case-wide suggestions queue (docs/api.md, Suggestions queue).

export type { QueueItem, QueueResult };

export async function listCaseSuggestions(caseId: string, signal?: AbortSignal): Promise<QueueResult> {
  return (await request<Single<QueueResult>>(`/api/v1/cases/${encodeURIComponent(caseId)}/suggestions`, { ...(signal && { signal }) })).data;
}

export async function decideValue(caseId: string, body: { decision: 'accept' | 'reject'; value: string; kind?: string }, idempotencyKey: string): Promise<{ decided: number; documents: number }> {
  return (await request<Single<{ decided: number; documents: number }>>(`/api/v1/cases/${encodeURIComponent(caseId)}/suggestions/decisions`, { method: 'POST', body, idempotencyKey })).data;
}
