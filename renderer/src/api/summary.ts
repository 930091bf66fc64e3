// AI summary through the application API (/ai-summary/*).
import { request } from './http.js';

interface SummaryAnswer {
  summary?: string | null;
  data?: { summary?: string | null } | null;
}

function summaryText(answer: SummaryAnswer): string | null {
  const text = answer.summary ?? answer.data?.summary ?? null;
  return text && text.trim() ? text : null;
}

/** The latest stored summary, or null when there is none. */
export async function getLatestSummary(documentId: string, userId: string, signal?: AbortSignal): Promise<string | null> {
  const answer = await request<SummaryAnswer>('/ai-summary/latest', { query: { doc_id: documentId, user_id: userId }, ...(signal && { signal }) });
  return summaryText(answer);
}

export async function generateSummary(documentId: string, userId: string): Promise<string | null> {
  const answer = await request<SummaryAnswer>('/ai-summary/generate', { method: 'POST', body: { doc_id: documentId, user_id: userId } });
  return summaryText(answer);
}
