import { z } from 'zod';
import { LAYERS, REDACTION_KINDS, REDACTION_STATES } from '../redaction-catalog.js';
import { Timestamp } from './shared.js';

const Finite = z.number().refine(Number.isFinite, 'must be a finite number');
const Point = z.object({ x: Finite, y: Finite });
const Box = z.object({ x1: Finite, y1: Finite, x2: Finite, y2: Finite });

export const Coordinates = z
  .object({
    page: z.number().int().min(1).describe('1-based page number (1 for single images)'),
    units: z.enum(['pdf_points', 'image_pixels']).describe('pdf_points: PDF user space of the page, origin bottom-left, y up; image_pixels: origin top-left, y down'),
    box: Box.optional().describe('Bounding box with x1 < x2 and y1 < y2; derived from points when omitted'),
    points: z.array(Point).max(10_000).optional().describe('Outline of polygon, lasso and freehand kinds (at least 3 points)'),
  })
  .meta({ id: 'Coordinates' });
export type Coordinates = z.infer<typeof Coordinates>;

export const Review = z.object({ decision: z.enum(['accept', 'reject']), reason: z.string().nullable(), decided_by: z.string(), decided_at: Timestamp });

export const Redaction = z
  .object({
    id: z.string(),
    document_id: z.string(),
    redaction_id: z.string().describe('Client id, shared with the application API'),
    kind: z.enum(REDACTION_KINDS),
    layer: z.enum(LAYERS),
    exemption: z.string().describe('e.g. (b)(6)'),
    reason: z.string().nullable(),
    classification_type: z.string().nullable(),
    state: z.enum(REDACTION_STATES),
    pending_reason: z.record(z.string(), z.unknown()).nullable(),
    coordinates: z.object({ page: z.number().int(), units: z.enum(['pdf_points', 'image_pixels']), box: Box, points: z.array(Point) }),
    version_id: z.string().describe('Layer version this box was last written in'),
    review: Review.nullable(),
    created_at: Timestamp,
    created_by: z.string(),
    updated_at: Timestamp,
    updated_by: z.string(),
  })
  .meta({ id: 'Redaction' });
export type Redaction = z.infer<typeof Redaction>;

export const CreateRedactionItem = z.strictObject({
  kind: z.enum(REDACTION_KINDS),
  coordinates: Coordinates,
  layer: z.enum(LAYERS),
  reason: z.string().max(2000).nullish(),
  classification_type: z.string().nullish(),
  redaction_id: z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9._:-]+$/).optional(),
  state: z.enum(['accepted', 'pending']).optional().describe('pending creates a staged suggestion; default accepted'),
  pending_reason: z.record(z.string(), z.unknown()).optional(),
});
export type CreateRedactionItem = z.infer<typeof CreateRedactionItem>;

export const MAX_REDACTIONS_PER_REQUEST = 5000;

export const CreateRedactionsBody = z.strictObject({ redactions: z.array(CreateRedactionItem).min(1).max(MAX_REDACTIONS_PER_REQUEST) });

export const PatchRedactionBody = z
  .strictObject({
    kind: z.enum(REDACTION_KINDS).optional(),
    coordinates: Coordinates.optional(),
    reason: z.string().max(2000).nullish(),
    classification_type: z.string().nullish(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send kind, coordinates, reason or classification_type' });
export type PatchRedactionBody = z.infer<typeof PatchRedactionBody>;

export const ReviewDecisionItem = z.strictObject({
  redaction_id: z.string().regex(/^[1-9][0-9]{0,15}$/, 'the id of a redaction of this document'),
  decision: z.enum(['accept', 'reject']),
  reason: z.string().max(2000).optional(),
});

export const ReviewDecisionsBody = z.strictObject({ decisions: z.array(ReviewDecisionItem).min(1).max(MAX_REDACTIONS_PER_REQUEST) });

export const ReviewDecision = z
  .object({
    id: z.string(),
    redaction_id: z.string(),
    decision: z.enum(['accept', 'reject']),
    reason: z.string().nullable(),
    decided_by: z.string(),
    decided_at: Timestamp,
    state: z.enum(REDACTION_STATES),
  })
  .meta({ id: 'ReviewDecision' });
export type ReviewDecision = z.infer<typeof ReviewDecision>;

export const RedactionType = z
  .object({
    kind: z.enum(REDACTION_KINDS),
    label: z.string(),
    geometry: z.enum(['box', 'points']),
    min_points: z.number().int(),
    tools: z.array(z.string()).describe('UI tools that produce this kind'),
  })
  .meta({ id: 'RedactionType' });
export type RedactionType = z.infer<typeof RedactionType>;

export const Comment = z
  .object({ id: z.string(), document_id: z.string(), text: z.string(), author: z.object({ type: z.string(), id: z.string() }), created_at: Timestamp })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof Comment>;

export const CreateCommentBody = z.strictObject({ text: z.string().trim().min(1).max(10_000) });
