// Shapes of the application API's redaction records (types only, so pure modules can use them).
import type { ClassificationType, Layer, RedactionKind, RedactionState } from './types.js';

export interface Point {
  x: number;
  y: number;
}

/** A stored PDF box as GET /api/redactions/{docId} returns it. */
export interface AppRecord {
  _id: string;
  record_type: 'pdf' | 'image';
  redaction_id: string;
  page_number: number;
  redaction_type: RedactionKind;
  layer: Layer;
  exemption: string;
  pdf_x1?: number;
  pdf_y1?: number;
  pdf_x2?: number;
  pdf_y2?: number;
  pdf_polygon_points?: Point[];
  image_x1?: number;
  image_y1?: number;
  image_x2?: number;
  image_y2?: number;
  image_polygon_points?: Point[];
  redaction_reason: string | null;
  classification_type: string | null;
  state: RedactionState;
  pending_reason: Record<string, unknown> | null;
  version_id: string;
  created_at: string;
  created_by: string;
}

export interface LayerVersion {
  version_id: string;
  version: number;
}

export interface RedactionList {
  redactions: AppRecord[];
  versions: Partial<Record<Layer, LayerVersion>>;
}

/** A PDF item of a save (POST /api/redactions/{docId}). */
export interface PdfSaveItem {
  redaction_id: string;
  page_number: number;
  redaction_type: RedactionKind;
  layer: Layer;
  redaction_reason: string | null;
  classification_type: ClassificationType | null;
  pdf_x1: number;
  pdf_y1: number;
  pdf_x2: number;
  pdf_y2: number;
  pdf_polygon_points: Point[];
}


/** An image item of a save: pixel coordinates of the stored image (origin top-left, y down). */
export interface ImageSaveItem {
  redaction_id: string;
  page_number: number;
  redaction_type: RedactionKind;
  layer: Layer;
  redaction_reason: string | null;
  classification_type: ClassificationType | null;
  image_x1: number;
  image_y1: number;
  image_x2: number;
  image_y2: number;
  image_polygon_points: Point[];
}

export type SaveItem = PdfSaveItem | ImageSaveItem;
