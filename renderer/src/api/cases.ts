import { listAll, request, type Single } from './http.js';
import type { Case, CaseAction, CasePermissions, CaseClock, ClockEventBody, ClockSettings, Document } from './types.js';

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
  receivedDate?: string | null;
  timeLimitDays?: number | null;
  requester?: Case['requester'];
}

export async function createCase(fields: NewCase, idempotencyKey: string): Promise<Case> {
  return (await request<Single<Case>>('/api/v1/cases', { method: 'POST', body: fields, idempotencyKey })).data;
}

export interface CaseChanges {
  name?: string;
  description?: string;
  priority?: Case['priority'];
  dueDate?: string | null;
  receivedDate?: string | null;
  timeLimitDays?: number | null;
  requester?: Case['requester'];
}

export async function updateCase(caseId: string, changes: CaseChanges, idempotencyKey: string): Promise<Case> {
  return (await request<Single<Case>>(`/api/v1/cases/${encodeURIComponent(caseId)}`, { method: 'PATCH', body: changes, idempotencyKey })).data;
}

export async function runCaseAction(caseId: string, action: CaseAction, idempotencyKey: string, note?: string): Promise<Case> {
  return (await request<Single<Case>>(`/api/v1/cases/${encodeURIComponent(caseId)}/actions`, { method: 'POST', body: { action, ...(note && { note }) }, idempotencyKey })).data;
}

/** What the signed-in user may do on the case now, with the reason when not (GET /cases/{id}/permissions). */
export async function getCasePermissions(caseId: string, signal?: AbortSignal): Promise<CasePermissions> {
  return (await request<Single<CasePermissions>>(`/api/v1/cases/${encodeURIComponent(caseId)}/permissions`, signal ? { signal } : {})).data;
}

export function listCaseDocuments(caseId: string, signal?: AbortSignal): Promise<Document[]> {
  return listAll<Document>(`/api/v1/cases/${encodeURIComponent(caseId)}/documents`, {}, signal);
}

export async function getCaseClock(caseId: string, signal?: AbortSignal): Promise<CaseClock> {
  return (await request<Single<CaseClock>>(`/api/v1/cases/${encodeURIComponent(caseId)}/clock`, signal ? { signal } : {})).data;
}

export async function addClockEvent(caseId: string, body: ClockEventBody, idempotencyKey: string): Promise<CaseClock> {
  return (await request<Single<CaseClock>>(`/api/v1/cases/${encodeURIComponent(caseId)}/clock/events`, { method: 'POST', body, idempotencyKey })).data;
}

export async function getClockSettings(signal?: AbortSignal): Promise<ClockSettings> {
  return (await request<Single<ClockSettings>>('/api/v1/clock-settings', signal ? { signal } : {})).data;
}

export async function updateClockSettings(changes: { time_limit_days?: number; holidays?: string[] }, idempotencyKey: string): Promise<ClockSettings> {
  return (await request<Single<ClockSettings>>('/api/v1/clock-settings', { method: 'PATCH', body: changes, idempotencyKey })).data;
}
