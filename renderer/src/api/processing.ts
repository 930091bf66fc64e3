import { request, type Single } from './http.js';
import type { Document } from './types.js';
import type { CaseProcessing } from '../../../main/common/schemas/auto-processing.js';

export type { CaseProcessing };
export type ProcessingEntry = CaseProcessing['documents'][number];

/** A case's automatic processing: per document its state and current job, failures, and an ETA. */
export async function getCaseProcessing(caseId: string, signal?: AbortSignal): Promise<CaseProcessing> {
  return (await request<Single<CaseProcessing>>(`/api/v1/cases/${encodeURIComponent(caseId)}/processing`, signal ? { signal } : {})).data;
}

/** Decrypts a password-protected PDF into its working copy; the password is never stored. */
export async function supplyPassword(documentId: string, password: string, idempotencyKey: string): Promise<Document> {
  return (await request<Single<Document>>(`/api/v1/documents/${encodeURIComponent(documentId)}/password`, { method: 'POST', body: { password }, idempotencyKey })).data;
}

export async function getProcessingSettings(signal?: AbortSignal): Promise<{ auto_process: boolean }> {
  return (await request<Single<{ auto_process: boolean }>>('/api/v1/processing-settings', signal ? { signal } : {})).data;
}

export async function updateProcessingSettings(autoProcess: boolean, idempotencyKey: string): Promise<{ auto_process: boolean }> {
  return (await request<Single<{ auto_process: boolean }>>('/api/v1/processing-settings', { method: 'PATCH', body: { auto_process: autoProcess }, idempotencyKey })).data;
}
