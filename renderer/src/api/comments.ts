import { listAll, request, type Single } from './http.js';
import type { Comment } from './types.js';

export function listComments(documentId: string, signal?: AbortSignal): Promise<Comment[]> {
  return listAll<Comment>(`/api/v1/documents/${encodeURIComponent(documentId)}/comments`, {}, signal);
}

export async function addComment(documentId: string, text: string, idempotencyKey: string): Promise<Comment> {
  return (await request<Single<Comment>>(`/api/v1/documents/${encodeURIComponent(documentId)}/comments`, { method: 'POST', body: { text }, idempotencyKey })).data;
}
