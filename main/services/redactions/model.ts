import type { RedactionRow } from '../../db/schema.js';
import { LAYER_INFO, type Layer, type RedactionKind, type RedactionState } from '../../common/redaction-catalog.js';

export interface Point {
  x: number;
  y: number;
}

/** One box as both surfaces describe it, after validation: the single shape the store writes. */
export interface BoxInput {
  redactionId: string;
  source: 'pdf' | 'image';
  layer: Layer;
  kind: RedactionKind;
  page: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  points: Point[];
  reason: string | null;
  classificationType: string | null;
}

/** A stored box, decoded from its row. */
export interface Box extends BoxInput {
  rowId: number;
  documentId: number;
  state: RedactionState;
  pendingReason: Record<string, unknown> | null;
  versionId: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

export function boxFromRow(row: RedactionRow): Box {
  return {
    rowId: row.id,
    documentId: row.document_id,
    redactionId: row.redaction_id,
    source: row.source,
    layer: row.layer as Layer,
    kind: row.kind as RedactionKind,
    page: row.page_number,
    x1: row.x1,
    y1: row.y1,
    x2: row.x2,
    y2: row.y2,
    points: row.points === '[]' ? [] : (JSON.parse(row.points) as Point[]),
    reason: row.reason,
    classificationType: row.classification_type,
    state: row.state,
    pendingReason: row.pending_reason ? (JSON.parse(row.pending_reason) as Record<string, unknown>) : null,
    versionId: row.version_id,
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

/**
 * The application API's stored-record shape: PDF boxes carry pdf_*, image boxes image_*. Built as one
 * literal per source (no spreads): listing 10,000 boxes calls this in a tight loop.
 */
export function toAppRecord(box: Box): Record<string, unknown> {
  const exemption = LAYER_INFO[box.layer].exemption;
  if (box.source === 'pdf') {
    return {
      _id: String(box.rowId),
      doc_id: box.documentId,
      record_type: 'pdf',
      redaction_id: box.redactionId,
      page_number: box.page,
      redaction_type: box.kind,
      layer: box.layer,
      exemption,
      pdf_x1: box.x1,
      pdf_y1: box.y1,
      pdf_x2: box.x2,
      pdf_y2: box.y2,
      pdf_polygon_points: box.points,
      redaction_reason: box.reason,
      classification_type: box.classificationType,
      state: box.state,
      pending_reason: box.pendingReason,
      version_id: box.versionId,
      created_at: box.createdAt,
      created_by: box.createdBy,
      updated_at: box.updatedAt,
      updated_by: box.updatedBy,
    };
  }
  return {
    _id: String(box.rowId),
    doc_id: box.documentId,
    record_type: 'image',
    redaction_id: box.redactionId,
    page_number: box.page,
    redaction_type: box.kind,
    layer: box.layer,
    exemption,
    image_x1: box.x1,
    image_y1: box.y1,
    image_x2: box.x2,
    image_y2: box.y2,
    image_polygon_points: box.points,
    redaction_reason: box.reason,
    classification_type: box.classificationType,
    state: box.state,
    pending_reason: box.pendingReason,
    version_id: box.versionId,
    created_at: box.createdAt,
    created_by: box.createdBy,
    updated_at: box.updatedAt,
    updated_by: box.updatedBy,
  };
}

/** Snapshot entry of a layer version: everything needed to read the version back. */
export function toSnapshotEntry(box: Box): Record<string, unknown> {
  return toAppRecord(box);
}

/** Bounding box of a polygon, for kinds drawn as points. */
export function boundsOf(points: readonly Point[]): { x1: number; y1: number; x2: number; y2: number } {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}
