import { request, type Single } from './http.js';
import type { CaseReleaseDetails, IndexRow, ReleaseCheck, ReleaseSettings, SafeguardBlock, Withholding } from '../../../main/common/schemas/releases.js';
import type { Export } from '../../../main/common/schemas/exports.js';
import { ApiError } from './errors.js';

export type { CaseReleaseDetails, IndexRow, ReleaseCheck, ReleaseSettings, SafeguardBlock, Withholding };

const base = (caseId: string) => `/api/v1/cases/${encodeURIComponent(caseId)}`;

export async function getReleaseDetails(caseId: string, signal?: AbortSignal): Promise<CaseReleaseDetails> {
  return (await request<Single<CaseReleaseDetails>>(`${base(caseId)}/release-details`, signal ? { signal } : {})).data;
}

export async function saveReleaseDetails(caseId: string, body: { request_number: string | null; requester_title: string | null }, idempotencyKey: string): Promise<CaseReleaseDetails> {
  return (await request<Single<CaseReleaseDetails>>(`${base(caseId)}/release-details`, { method: 'PATCH', body, idempotencyKey })).data;
}

export async function getReleaseCheck(caseId: string, signal?: AbortSignal): Promise<ReleaseCheck> {
  return (await request<Single<ReleaseCheck>>(`${base(caseId)}/release-check`, signal ? { signal } : {})).data;
}

/** Re-approves an approved case changed since its approval; the note, like an approval's, goes to its history. */
export async function reapprove(caseId: string, idempotencyKey: string, note?: string): Promise<ReleaseCheck> {
  return (await request<Single<ReleaseCheck>>(`${base(caseId)}/release-approval`, { method: 'POST', idempotencyKey, ...(note !== undefined && { body: { note } }) })).data;
}

export async function listWithholdings(caseId: string, signal?: AbortSignal): Promise<Withholding[]> {
  return (await request<Single<Withholding[]>>(`${base(caseId)}/withholdings`, signal ? { signal } : {})).data;
}

export async function addWithholding(
  caseId: string,
  body: { document_id: string; pages: { from: number; to: number } | null; exemption: string; category?: string },
  idempotencyKey: string,
): Promise<Withholding> {
  return (await request<Single<Withholding>>(`${base(caseId)}/withholdings`, { method: 'POST', body, idempotencyKey })).data;
}

export async function removeWithholding(id: string): Promise<void> {
  await request<unknown>(`/api/v1/withholdings/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function previewIndex(caseId: string, signal?: AbortSignal): Promise<IndexRow[]> {
  return (await request<Single<IndexRow[]>>(`${base(caseId)}/release-index-preview`, signal ? { signal } : {})).data;
}

export interface ReleaseRequest {
  case_id: string;
  format: 'zip' | 'pdf';
  options: Record<string, unknown>;
  override?: { reason: string };
}

export async function startRelease(body: ReleaseRequest, idempotencyKey: string): Promise<Export> {
  return (await request<Single<Export>>('/api/v1/exports', { method: 'POST', body, idempotencyKey })).data;
}

/** The blocks a refused release listed (409 details), or null for any other failure. */
export function blocksOf(error: unknown): SafeguardBlock[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const details = (error.body?.error as { details?: { blocks?: SafeguardBlock[] } } | undefined)?.details;
  return details?.blocks ?? null;
}

export interface LetterSettings {
  letterhead: string | null;
  appeal_rights: string | null;
}

/** The organization's release settings; only the cover letter's wording is read here. */
export async function getLetterSettings(signal?: AbortSignal): Promise<LetterSettings> {
  return (await request<Single<LetterSettings>>('/api/v1/release-settings', signal ? { signal } : {})).data;
}

export async function saveLetterSettings(body: LetterSettings, idempotencyKey: string): Promise<LetterSettings> {
  return (await request<Single<LetterSettings>>('/api/v1/release-settings', { method: 'PATCH', body, idempotencyKey })).data;
}
