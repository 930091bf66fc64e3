import { z } from 'zod';
import { DomainError, type ErrorDetail } from '../../common/errors.js';
import {
  CLASSIFICATION_TYPES,
  LAYERS,
  POLYGON_LIKE_KINDS,
  REDACTION_KINDS,
  type Layer,
  type RedactionKind,
} from '../../common/redaction-catalog.js';
import type { BoxInput, Point } from './model.js';

// The application API's item shapes (spec: "PDF redaction item", "Image redaction item"). Unknown keys,
// such as fields of a stored record sent back by the client, are ignored rather than refused.

const Finite = z.number().refine(Number.isFinite, 'must be a finite number');
const PointInput = z.union([z.object({ x: Finite, y: Finite }), z.tuple([Finite, Finite])]).transform((point): Point => (Array.isArray(point) ? { x: point[0], y: point[1] } : { x: point.x, y: point.y }));
const RedactionId = z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only');
const Kind = z.enum(REDACTION_KINDS, { message: `must be one of ${REDACTION_KINDS.join(', ')}` });
const LayerField = z.enum(LAYERS, { message: `must be one of ${LAYERS.join(', ')}` });
const Reason = z.string().max(2000).nullish();
const Classification = z.string().nullish();

export const PdfItem = z.object({
  redaction_id: RedactionId,
  page_number: z.number().int().min(1),
  redaction_type: Kind,
  layer: LayerField,
  redaction_reason: Reason,
  classification_type: Classification,
  pdf_x1: Finite,
  pdf_y1: Finite,
  pdf_x2: Finite,
  pdf_y2: Finite,
  pdf_polygon_points: z.array(PointInput).max(10_000).optional(),
});

export const ImageItem = z.object({
  redaction_id: RedactionId,
  layer: LayerField,
  page_number: z.number().int().min(1).optional(),
  redaction_type: Kind.optional(),
  type: Kind.optional(),
  redaction_reason: Reason,
  classification_type: Classification,
  image_x1: Finite.optional(),
  image_y1: Finite.optional(),
  image_x2: Finite.optional(),
  image_y2: Finite.optional(),
  x: Finite.optional(),
  y: Finite.optional(),
  width: Finite.optional(),
  w: Finite.optional(),
  height: Finite.optional(),
  h: Finite.optional(),
  image_polygon_points: z.array(PointInput).max(10_000).optional(),
  polygon_points: z.array(PointInput).max(10_000).optional(),
});

export type Source = 'pdf' | 'image';

function issueDetails(error: z.ZodError, prefix: string): ErrorDetail[] {
  return error.issues.map((issue) => ({ field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message }));
}

/** Rules shared by every surface once the shape is known: a real box, polygon points, B1 classification. */
export function checkBox(box: BoxInput, field: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!(box.x2 > box.x1)) problems.push({ field: `${field}.x2`, message: 'the box must have a positive width (x2 > x1)' });
  if (!(box.y2 > box.y1)) problems.push({ field: `${field}.y2`, message: 'the box must have a positive height (y2 > y1)' });
  if (POLYGON_LIKE_KINDS.includes(box.kind) && box.points.length < 3) {
    problems.push({ field: `${field}.points`, message: `${box.kind} needs at least 3 points` });
  }
  if (box.layer === 'B1') {
    if (!box.classificationType || !(CLASSIFICATION_TYPES as readonly string[]).includes(box.classificationType)) {
      problems.push({ field: `${field}.classification_type`, message: `layer B1 requires classification_type: ${CLASSIFICATION_TYPES.join(', ')}` });
    }
  } else if (box.classificationType) {
    problems.push({ field: `${field}.classification_type`, message: 'classification_type applies to layer B1 only' });
  }
  return problems;
}

function pdfBox(item: z.infer<typeof PdfItem>): BoxInput {
  return {
    redactionId: item.redaction_id,
    source: 'pdf',
    layer: item.layer,
    kind: item.redaction_type,
    page: item.page_number,
    x1: item.pdf_x1,
    y1: item.pdf_y1,
    x2: item.pdf_x2,
    y2: item.pdf_y2,
    points: item.pdf_polygon_points ?? [],
    reason: item.redaction_reason ?? null,
    classificationType: item.classification_type ?? null,
  };
}

function imageBox(item: z.infer<typeof ImageItem>, field: string): BoxInput | ErrorDetail[] {
  const width = item.width ?? item.w;
  const height = item.height ?? item.h;
  const x1 = item.image_x1 ?? item.x;
  const y1 = item.image_y1 ?? item.y;
  const x2 = item.image_x2 ?? (x1 !== undefined && width !== undefined ? x1 + width : undefined);
  const y2 = item.image_y2 ?? (y1 !== undefined && height !== undefined ? y1 + height : undefined);
  if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) {
    return [{ field, message: 'give image_x1, image_y1, image_x2, image_y2, or x, y with width|w and height|h' }];
  }
  return {
    redactionId: item.redaction_id,
    source: 'image',
    layer: item.layer,
    kind: item.redaction_type ?? item.type ?? 'rectangle',
    page: item.page_number ?? 1,
    x1,
    y1,
    x2,
    y2,
    points: item.image_polygon_points ?? item.polygon_points ?? [],
    reason: item.redaction_reason ?? null,
    classificationType: item.classification_type ?? null,
  };
}

const REDACTION_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isOptionalString = (value: unknown): value is string | null | undefined => value === undefined || value === null || typeof value === 'string';

function plainPoints(raw: unknown): Point[] | null {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 10_000) return null;
  const points: Point[] = [];
  for (const point of raw as unknown[]) {
    if (Array.isArray(point)) {
      if (point.length !== 2 || !finite(point[0]) || !finite(point[1])) return null;
      points.push({ x: point[0], y: point[1] });
    } else if (point !== null && typeof point === 'object') {
      const { x, y } = point as { x?: unknown; y?: unknown };
      if (!finite(x) || !finite(y)) return null;
      points.push({ x, y });
    } else return null;
  }
  return points;
}

/**
 * PdfItem's rules written out by hand for the common case (a save can carry thousands of items): the
 * box when the item plainly satisfies PdfItem, with the same result; null sends it through zod, which
 * also words the problems.
 */
function plainPdfBox(raw: unknown): BoxInput | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const item = raw as Record<string, unknown>;
  const { redaction_id: redactionId, page_number: page, redaction_type: kind, layer, redaction_reason: reason, classification_type: classification } = item;
  const { pdf_x1: x1, pdf_y1: y1, pdf_x2: x2, pdf_y2: y2 } = item;
  if (typeof redactionId !== 'string' || redactionId.length > 200 || !REDACTION_ID_PATTERN.test(redactionId)) return null;
  if (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 1) return null;
  if (typeof kind !== 'string' || !(REDACTION_KINDS as readonly string[]).includes(kind)) return null;
  if (typeof layer !== 'string' || !(LAYERS as readonly string[]).includes(layer)) return null;
  if (!isOptionalString(reason) || (typeof reason === 'string' && reason.length > 2000) || !isOptionalString(classification)) return null;
  if (!finite(x1) || !finite(y1) || !finite(x2) || !finite(y2)) return null;
  const points = plainPoints(item.pdf_polygon_points);
  if (!points) return null;
  return {
    redactionId,
    source: 'pdf',
    layer: layer as Layer,
    kind: kind as RedactionKind,
    page,
    x1,
    y1,
    x2,
    y2,
    points,
    reason: reason ?? null,
    classificationType: classification ?? null,
  };
}

/** Validates one item against the document's kind of content; returns the box or the problems. */
export function parseAppItem(raw: unknown, source: Source, field: string): BoxInput | ErrorDetail[] {
  if (source === 'pdf') {
    const plain = plainPdfBox(raw);
    if (plain) {
      const problems = checkBox(plain, field);
      return problems.length > 0 ? problems : plain;
    }
    const parsed = PdfItem.safeParse(raw);
    if (!parsed.success) return issueDetails(parsed.error, field);
    const box = pdfBox(parsed.data);
    const problems = checkBox(box, field);
    return problems.length > 0 ? problems : box;
  }
  const parsed = ImageItem.safeParse(raw);
  if (!parsed.success) return issueDetails(parsed.error, field);
  const box = imageBox(parsed.data, field);
  if (Array.isArray(box)) return box;
  const problems = checkBox(box, field);
  return problems.length > 0 ? problems : box;
}

/** Save rules 1–4: a non-empty array of valid items that all share one layer. */
export function parseSaveItems(raw: unknown, source: Source): { layer: Layer; boxes: BoxInput[] } {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new DomainError('validation_error', 'redactions must be a non-empty array', [{ field: 'redactions', message: 'a non-empty array is required' }]);
  }
  const layers = new Set(raw.map((item: unknown) => (item && typeof item === 'object' ? (item as { layer?: unknown }).layer : undefined)));
  if (layers.size > 1) {
    throw new DomainError('validation_error', 'all redactions of one save must share one layer', [
      { field: 'redactions', message: `items mix layers ${[...layers].map(String).join(', ')}; send one request per layer` },
    ]);
  }
  const boxes: BoxInput[] = [];
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  raw.forEach((item: unknown, index) => {
    const result = parseAppItem(item, source, `redactions.${index}`);
    if (Array.isArray(result)) problems.push(...result);
    else if (seen.has(result.redactionId)) problems.push({ field: `redactions.${index}.redaction_id`, message: 'appears twice in this save' });
    else {
      seen.add(result.redactionId);
      boxes.push(result);
    }
  });
  if (problems.length > 0) throw new DomainError('validation_error', `invalid redactions: ${problems[0]?.message ?? ''}`, problems);
  const layer = boxes[0]?.layer;
  if (!layer) throw new Error('unreachable: non-empty save without a layer');
  return { layer, boxes };
}

export function sourceForDocumentType(documentType: string): Source {
  if (documentType === 'pdf') return 'pdf';
  if (documentType === 'png' || documentType === 'jpeg' || documentType === 'tiff') return 'image';
  throw new DomainError('validation_error', `redactions apply to PDF and image documents, not ${documentType}`);
}

export type { RedactionKind };
