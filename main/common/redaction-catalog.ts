/** FOIA exemption layers; each maps to the exemption printed on the burned-in box. */
export const LAYERS = ['B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7'] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_INFO: Readonly<Record<Layer, { exemption: string; label: string; description: string }>> = {
  B1: { exemption: '(b)(1)', label: 'National security', description: 'Classified national defense or foreign policy information' },
  B2: { exemption: '(b)(2)', label: 'Internal agency rules', description: 'Internal personnel rules and practices of an agency' },
  B3: { exemption: '(b)(3)', label: 'Statutory exemption', description: 'Information exempted by another federal statute' },
  B4: { exemption: '(b)(4)', label: 'Confidential business information', description: 'Trade secrets and confidential commercial or financial information' },
  B5: { exemption: '(b)(5)', label: 'Privileged communications', description: 'Inter- or intra-agency memoranda protected by a legal privilege' },
  B6: { exemption: '(b)(6)', label: 'Personal privacy', description: 'Personnel, medical and similar files whose release would invade personal privacy' },
  B7: { exemption: '(b)(7)', label: 'Law enforcement', description: 'Records compiled for law enforcement purposes' },
};

/** Allowed classification_type values on layer B1: the levels of Executive Order 13526, section 1.2. */
export const CLASSIFICATION_TYPES = ['confidential', 'secret', 'top_secret'] as const;
export type ClassificationType = (typeof CLASSIFICATION_TYPES)[number];

/** Kinds a stored redaction can have. full_page is a drawing tool that the client stores as a rectangle. */
export const REDACTION_KINDS = ['rectangle', 'polygon', 'lasso', 'freehand'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

export const POLYGON_LIKE_KINDS: readonly RedactionKind[] = ['polygon', 'lasso', 'freehand'];

export const REDACTION_STATES = ['pending', 'accepted', 'rejected'] as const;
export type RedactionState = (typeof REDACTION_STATES)[number];

export interface RedactionTool {
  tool: string;
  label: string;
  /** The kind the client stores for this tool. */
  kind: RedactionKind;
  required_fields: string[];
  min_points: number;
  description: string;
}

const BOX_FIELDS = ['redaction_id', 'page_number', 'redaction_type', 'layer', 'pdf_x1', 'pdf_y1', 'pdf_x2', 'pdf_y2'];

export const REDACTION_TOOLS: readonly RedactionTool[] = [
  { tool: 'rectangle', label: 'Rectangle', kind: 'rectangle', required_fields: BOX_FIELDS, min_points: 0, description: 'Drag a box over the content to withhold' },
  { tool: 'polygon', label: 'Polygon', kind: 'polygon', required_fields: [...BOX_FIELDS, 'pdf_polygon_points'], min_points: 3, description: 'Click the corners of a shape' },
  { tool: 'lasso', label: 'Lasso', kind: 'lasso', required_fields: [...BOX_FIELDS, 'pdf_polygon_points'], min_points: 3, description: 'Draw a closed outline around content' },
  { tool: 'freehand', label: 'Freehand', kind: 'freehand', required_fields: [...BOX_FIELDS, 'pdf_polygon_points'], min_points: 3, description: 'Paint over content; stored as its outline' },
  { tool: 'full_page', label: 'Full page', kind: 'rectangle', required_fields: BOX_FIELDS, min_points: 0, description: 'Withhold a whole page; sent as a rectangle covering the page' },
];

export function isLayer(value: unknown): value is Layer {
  return typeof value === 'string' && (LAYERS as readonly string[]).includes(value);
}
