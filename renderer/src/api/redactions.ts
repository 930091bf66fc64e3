// Redactions: the application API stores and versions them per layer; review decisions on staged
// suggestions go through /api/v1 (the app API deliberately never changes a box's state).
import { request, type Single } from './http.js';
import type { AppRecord, RedactionList, SaveItem } from './redaction-types.js';
import type { Layer, ReviewDecision } from './types.js';

export type { AppRecord, ImageSaveItem, LayerVersion, PdfSaveItem, Point, RedactionList, SaveItem } from './redaction-types.js';

export function listRedactions(documentId: string, signal?: AbortSignal): Promise<RedactionList> {
  return request<RedactionList>(`/api/redactions/${encodeURIComponent(documentId)}`, signal ? { signal } : {});
}

export interface LayerLock {
  layer: string;
  locked_by: string;
  locked_by_name: string;
  expires_at: string;
}

export interface LayerAnswer {
  layer: Layer;
  version_id: string | null;
  version: number;
  redactions: AppRecord[];
  lock: LayerLock | null;
}

export function getLayer(documentId: string, layer: Layer): Promise<LayerAnswer> {
  return request<LayerAnswer>(`/api/redactions/${encodeURIComponent(documentId)}/layer/${layer}`);
}

export interface SaveAnswer {
  success: boolean;
  message: string;
  count: number;
  version_id: string;
  version: number;
  layer: Layer;
}

export function saveLayer(documentId: string, items: SaveItem[], baseVersionId: string | null): Promise<SaveAnswer> {
  return request<SaveAnswer>(`/api/redactions/${encodeURIComponent(documentId)}`, {
    method: 'POST',
    body: { redactions: items, versionInfo: { versionId: baseVersionId } },
  });
}

export interface DeleteAnswer {
  success: boolean;
  deletedCount: number;
  results: { redaction_id: string; version_id: string | null; success: boolean; message: string }[];
}

/** Deletes boxes of one layer, each checked against the version the user saw. */
export function deleteBoxes(items: { redactionId: string; versionId: string | null }[]): Promise<DeleteAnswer> {
  const first = items[0];
  if (!first) return Promise.resolve({ success: true, deletedCount: 0, results: [] });
  return request<DeleteAnswer>(`/api/redactions/box/${encodeURIComponent(first.redactionId)}`, {
    method: 'DELETE',
    body: { redactionList: items.map((item) => ({ redaction_id: item.redactionId, version_id: item.versionId })) },
  });
}

export interface LockAnswer {
  success: boolean;
  lock: { layer: Layer; user_id: string; expires_at: string; timeout_seconds: number };
}

export function lockLayer(documentId: string, layer: Layer, renew = false): Promise<LockAnswer> {
  return request<LockAnswer>(`/api/redactions/${encodeURIComponent(documentId)}/layer/${layer}/lock`, { method: renew ? 'PUT' : 'POST' });
}

export async function unlockLayer(documentId: string, layer: Layer, keepalive = false): Promise<void> {
  await request(`/api/redactions/${encodeURIComponent(documentId)}/layer/${layer}/lock`, { method: 'DELETE', keepalive });
}

export interface Decision {
  /** The store's numeric id (AppRecord._id). */
  redactionRowId: string;
  decision: 'accept' | 'reject';
  reason?: string;
}

export async function submitReviewDecisions(documentId: string, decisions: Decision[], idempotencyKey: string): Promise<ReviewDecision[]> {
  const body = {
    decisions: decisions.map((decision) => ({ redaction_id: decision.redactionRowId, decision: decision.decision, ...(decision.reason && { reason: decision.reason }) })),
  };
  return (await request<Single<{ decisions: ReviewDecision[] }>>(`/api/v1/documents/${encodeURIComponent(documentId)}/review-decisions`, { method: 'POST', body, idempotencyKey })).data.decisions;
}
