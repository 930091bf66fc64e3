// E-mail and Office intake (issue 19): conversion state, families and threads of a case's documents.
import { request, withQuery, type Single } from './http.js';
import type { Family, CaseIntakeList } from '../../../main/common/schemas/intake.js';

export type { Family, CaseIntakeList };
export type IntakeFilter = 'all' | 'duplicates' | 'thread' | 'has_attachments';

export async function listCaseIntake(caseId: string, filter: IntakeFilter, threadId: string | null, signal?: AbortSignal): Promise<CaseIntakeList> {
  const query = { filter: filter === 'all' ? undefined : filter, thread_id: threadId ?? undefined };
  return (await request<Single<CaseIntakeList>>(withQuery(`/api/v1/cases/${encodeURIComponent(caseId)}/intake`, query), signal ? { signal } : {})).data;
}

export async function getFamily(documentId: string, signal?: AbortSignal): Promise<Family> {
  return (await request<Single<Family>>(`/api/v1/documents/${encodeURIComponent(documentId)}/family`, signal ? { signal } : {})).data;
}
