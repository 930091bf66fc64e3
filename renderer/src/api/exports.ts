import { request, type Page, type Single } from './http.js';
import type { DownloadUrl } from './types.js';
import type { Export, ExportFiltersInput, ExportFormat } from '../../../main/common/schemas/exports.js';

export type { Export, ExportFormat };

export interface ExportRequest {
  case_id: string;
  format: ExportFormat;
  filters?: ExportFiltersInput;
  options?: { cover_sheet?: boolean; labels?: boolean; dpi?: number; method?: 'auto' | 'raster' };
}

export async function createExport(body: ExportRequest, idempotencyKey: string): Promise<Export> {
  return (await request<Single<Export>>('/api/v1/exports', { method: 'POST', body, idempotencyKey })).data;
}

export async function getExport(exportId: string, signal?: AbortSignal): Promise<Export> {
  return (await request<Single<Export>>(`/api/v1/exports/${encodeURIComponent(exportId)}`, signal ? { signal } : {})).data;
}

/** The newest exports of the organization (one page; the list is newest first). */
export async function recentExports(signal?: AbortSignal): Promise<Export[]> {
  return (await request<Page<Export>>('/api/v1/exports', { query: { limit: 50 }, ...(signal && { signal }) })).data;
}

export async function exportDownloadUrl(exportId: string): Promise<DownloadUrl> {
  return (await request<Single<DownloadUrl>>(`/api/v1/exports/${encodeURIComponent(exportId)}/download-url`)).data;
}

export async function cancelExport(exportId: string, idempotencyKey: string): Promise<Export> {
  return (await request<Single<Export>>(`/api/v1/exports/${encodeURIComponent(exportId)}/cancel`, { method: 'POST', idempotencyKey })).data;
}

export async function retryExport(exportId: string, idempotencyKey: string): Promise<Export> {
  return (await request<Single<Export>>(`/api/v1/exports/${encodeURIComponent(exportId)}/retry`, { method: 'POST', idempotencyKey })).data;
}
