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

const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

/**
 * A layer version's snapshot as JSON text: the same text as JSON.stringify(boxes.map(toSnapshotEntry)),
 * written directly because a save snapshots every box of the layer. Keep the keys in toAppRecord's order.
 */
export function snapshotJson(boxes: readonly Box[]): string {
  const entries: string[] = new Array<string>(boxes.length);
  for (let index = 0; index < boxes.length; index += 1) {
    const box = boxes[index] as Box;
    const p = box.source === 'pdf' ? 'pdf' : 'image';
    entries[index] =
      `{"_id":"${box.rowId}","doc_id":${box.documentId},"record_type":"${p}","redaction_id":${JSON.stringify(box.redactionId)},` +
      `"page_number":${JSON.stringify(box.page)},"redaction_type":${JSON.stringify(box.kind)},"layer":${JSON.stringify(box.layer)},` +
      `"exemption":${JSON.stringify(LAYER_INFO[box.layer].exemption)},` +
      `"${p}_x1":${JSON.stringify(box.x1)},"${p}_y1":${JSON.stringify(box.y1)},"${p}_x2":${JSON.stringify(box.x2)},"${p}_y2":${JSON.stringify(box.y2)},` +
      `"${p}_polygon_points":${box.points.length === 0 ? '[]' : JSON.stringify(box.points)},` +
      `"redaction_reason":${text(box.reason)},"classification_type":${text(box.classificationType)},"state":${JSON.stringify(box.state)},` +
      `"pending_reason":${box.pendingReason === null ? 'null' : JSON.stringify(box.pendingReason)},"version_id":${JSON.stringify(box.versionId)},` +
      `"created_at":${JSON.stringify(box.createdAt)},"created_by":${JSON.stringify(box.createdBy)},` +
      `"updated_at":${JSON.stringify(box.updatedAt)},"updated_by":${JSON.stringify(box.updatedBy)}}`;
  }
  return `[${entries.join(',')}]`;
}

/** A stored box from its input and row facts, as one literal: spreads here made each box a slow object. */
export function storedBox(
  box: BoxInput,
  row: { rowId: number; documentId: number; state: RedactionState; pendingReason: Record<string, unknown> | null; createdAt: string; createdBy: string },
  stamp: { versionId: string; updatedAt: string; updatedBy: string },
): Box {
  return {
    rowId: row.rowId,
    documentId: row.documentId,
    redactionId: box.redactionId,
    source: box.source,
    layer: box.layer,
    kind: box.kind,
    page: box.page,
    x1: box.x1,
    y1: box.y1,
    x2: box.x2,
    y2: box.y2,
    points: box.points,
    reason: box.reason,
    classificationType: box.classificationType,
    state: row.state,
    pendingReason: row.pendingReason,
    versionId: stamp.versionId,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    updatedAt: stamp.updatedAt,
    updatedBy: stamp.updatedBy,
  };
}

/** Bounding box of a polygon, for kinds drawn as points. */
export function boundsOf(points: readonly Point[]): { x1: number; y1: number; x2: number; y2: number } {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}
