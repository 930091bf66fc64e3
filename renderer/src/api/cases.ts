import { listAll, request, type Single } from './http.js';
import type { Case, CaseAction, Document } from './types.js';

export function listCases(signal?: AbortSignal): Promise<Case[]> {
  return listAll<Case>('/api/v1/cases', {}, signal);
}

export async function getCase(caseId: string, signal?: AbortSignal): Promise<Case> {
  return (await request<Single<Case>>(`/api/v1/cases/${encodeURIComponent(caseId)}`, signal ? { signal } : {})).data;
}

export interface NewCase {
  name: string;
  description?: string;
  priority?: Case['priority'];
  dueDate?: string | null;
}

export async function createCase(fields: NewCase, idempotencyKey: string): Promise<Case> {
  return (await request<Single<Case>>('/api/v1/cases', { method: 'POST', body: fields, idempotencyKey })).data;
}

export interface CaseChanges {
  name?: string;
  description?: string;
  priority?: Case['priority'];
  dueDate?: string | null;
}

export async function updateCase(caseId: string, changes: CaseChanges, idempotencyKey: string): Promise<Case> {
  return (await request<Single<Case>>(`/api/v1/cases/${encodeURIComponent(caseId)}`, { method: 'PATCH', body: changes, idempotencyKey })).data;
}

export async function runCaseAction(caseId: string, action: CaseAction, idempotencyKey: string): Promise<Case> {
  return (await request<Single<Case>>(`/api/v1/cases/${encodeURIComponent(caseId)}/actions`, { method: 'POST', body: { action }, idempotencyKey })).data;
}

export function listCaseDocuments(caseId: string, signal?: AbortSignal): Promise<Document[]> {
  return listAll<Document>(`/api/v1/cases/${encodeURIComponent(caseId)}/documents`, {}, signal);
}
