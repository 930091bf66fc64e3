// OCR through the application API (/ocr/*), as its spec describes the web client's flow.
import { ApiError } from './errors.js';
import { readOcrStatus, type OcrStatus } from '../domain/ocr-status.js';
import { request } from './http.js';

export type { OcrStatus };

export interface OcrPage {
  page?: number;
  page_number?: number;
  text: string;
}

export interface OcrText {
  pages: OcrPage[];
}

/** Stored OCR text, or null when the document has not been through OCR yet (404). */
export async function getOcrText(documentId: string, userId: string, signal?: AbortSignal): Promise<OcrText | null> {
  try {
    const answer = await request<OcrText & { data?: OcrText }>('/ocr/text', { query: { doc_id: documentId, user_id: userId }, ...(signal && { signal }) });
    return Array.isArray(answer.pages) ? answer : (answer.data ?? { pages: [] });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export async function startOcr(documentId: string, userId: string): Promise<void> {
  await request('/ocr/status', { method: 'POST', body: { doc_id: documentId, user_id: userId } });
}

export async function getOcrStatus(documentId: string, userId: string, signal?: AbortSignal): Promise<OcrStatus> {
  const answer = await request<Record<string, unknown>>('/ocr/latest-status', { method: 'POST', body: { doc_id: documentId, user_id: userId }, ...(signal && { signal }) });
  return readOcrStatus(answer);
}
