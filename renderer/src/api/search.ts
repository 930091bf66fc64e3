import { request, type Single } from './http.js';

// Case-wide search and search-and-redact (docs/api.md, Search).

export type SearchMode = 'text' | 'phrase' | 'terms' | 'pattern';

export interface SearchQuery {
  query: string;
  mode: SearchMode;
  whole_word: boolean;
  case_sensitive: boolean;
  document_ids?: string[];
}

export interface HitBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface SearchHit {
  ref: string;
  document_id: string;
  file_name: string;
  page: number;
  text: string;
  context: string;
  box: HitBox;
  boxes?: HitBox[];
  units: 'pdf_points' | 'pixels';
}

export interface SearchPage {
  hits: SearchHit[];
  total: number;
  cursor: string | null;
}

export interface SearchRedactResult {
  created: number;
  redaction_ids: string[];
  hits: number;
  documents: number;
}

export async function searchCase(caseId: string, query: SearchQuery, cursor: string | null, signal?: AbortSignal): Promise<SearchPage> {
  const answer = await request<{ data: { hits: SearchHit[]; total: number }; cursor: string | null }>(`/api/v1/cases/${encodeURIComponent(caseId)}/search`, {
    method: 'POST',
    body: query,
    query: { limit: 100, cursor },
    ...(signal && { signal }),
  });
  return { hits: answer.data.hits, total: answer.data.total, cursor: answer.cursor };
}

export async function redactSearchHits(
  caseId: string,
  query: SearchQuery,
  options: { layer: string; state: 'pending' | 'accepted'; exclude: string[] },
  idempotencyKey: string,
): Promise<SearchRedactResult> {
  return (
    await request<Single<SearchRedactResult>>(`/api/v1/cases/${encodeURIComponent(caseId)}/search/redactions`, {
      method: 'POST',
      body: { ...query, ...options },
      idempotencyKey,
    })
  ).data;
}
