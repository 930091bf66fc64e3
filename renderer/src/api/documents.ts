import { ApiError } from './errors.js';
import { request, type Single } from './http.js';
import type { Document, DownloadUrl, UploadSession } from './types.js';

export async function getDocument(documentId: string, signal?: AbortSignal): Promise<Document> {
  return (await request<Single<Document>>(`/api/v1/documents/${encodeURIComponent(documentId)}`, signal ? { signal } : {})).data;
}

export async function updateDocument(documentId: string, changes: { fileName?: string; description?: string }, idempotencyKey: string): Promise<Document> {
  return (await request<Single<Document>>(`/api/v1/documents/${encodeURIComponent(documentId)}`, { method: 'PATCH', body: changes, idempotencyKey })).data;
}

export async function deleteDocument(documentId: string): Promise<void> {
  await request(`/api/v1/documents/${encodeURIComponent(documentId)}`, { method: 'DELETE' });
}

export async function createUploadSession(caseId: string, files: { name: string; size: number }[], idempotencyKey: string): Promise<UploadSession> {
  return (await request<Single<UploadSession>>(`/api/v1/cases/${encodeURIComponent(caseId)}/upload-sessions`, { method: 'POST', body: { files }, idempotencyKey })).data;
}

export async function completeUploadSession(sessionId: string, idempotencyKey: string): Promise<UploadSession> {
  return (await request<Single<UploadSession>>(`/api/v1/upload-sessions/${encodeURIComponent(sessionId)}/complete`, { method: 'POST', idempotencyKey })).data;
}

/**
 * PUTs a file's bytes to its single-use upload URL, reporting progress (0–1). XMLHttpRequest because fetch
 * has no upload progress events.
 */
export function putFile(url: string, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const envelope = body?.error as Record<string, unknown> | undefined;
      reject(new ApiError(xhr.status, String(envelope?.code ?? `http_${xhr.status}`), String(envelope?.message ?? `upload failed (${xhr.status})`), body));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'the upload was interrupted'));
    xhr.onabort = () => reject(new DOMException('upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

export async function documentDownloadUrl(documentId: string): Promise<DownloadUrl> {
  return (await request<Single<DownloadUrl>>(`/api/v1/documents/${encodeURIComponent(documentId)}/download-url`)).data;
}

/** The original bytes of a document (a fresh single-use URL each time). */
export async function fetchDocumentBytes(documentId: string, signal?: AbortSignal): Promise<Uint8Array> {
  const { url } = await documentDownloadUrl(documentId);
  const response = await fetch(url, { credentials: 'same-origin', ...(signal && { signal }) });
  if (!response.ok) throw new ApiError(response.status, 'download_failed', `the document could not be downloaded (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}
