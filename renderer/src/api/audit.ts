import { request, withQuery } from './http.js';

// The audit trail of a case (docs/api.md, Audit trail).

export interface AuditChange {
  redaction_id: string;
  change: 'created' | 'updated' | 'deleted';
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: string; id: string; name: string | null };
  action: string;
  resource_type: string;
  resource_id: string;
  document_id: string | null;
  details: Record<string, unknown> | null;
  changes?: AuditChange[];
}

export interface AuditFilter {
  document_id?: string;
  action?: string;
}

export async function listCaseAudit(caseId: string, filter: AuditFilter, cursor: string | null, signal?: AbortSignal): Promise<{ data: AuditEntry[]; cursor: string | null }> {
  return request(`/api/v1/cases/${encodeURIComponent(caseId)}/audit`, { query: { ...filter, limit: 50, cursor }, ...(signal && { signal }) });
}

/** Where the browser downloads the CSV (the session cookie authenticates it). */
export function caseAuditCsvUrl(caseId: string, filter: AuditFilter): string {
  return withQuery(`/api/v1/cases/${encodeURIComponent(caseId)}/audit.csv`, { ...filter });
}
