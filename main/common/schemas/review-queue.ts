import { z } from 'zod';
import { ID_PATTERN } from './shared.js';

// The case-wide queue of pending suggestions (docs/api.md, Suggestions queue).

export const QueueItem = z
  .object({
    id: z.string().describe('Integration id of the pending redaction'),
    redaction_id: z.string(),
    document_id: z.string(),
    file_name: z.string(),
    page: z.number().int(),
    layer: z.string(),
    exemption: z.string(),
    kind: z.string().describe('The detected entity (ssn, email, person…), or search / manual'),
    label: z.string(),
    score: z.number().nullable(),
    text: z.string().describe('The words under the box as read from the page'),
    context: z.string(),
    box: z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() }),
  })
  .meta({ id: 'QueueItem' });
export type QueueItem = z.infer<typeof QueueItem>;

export const QueueResult = z
  .object({ items: z.array(QueueItem), total: z.number().int(), by_kind: z.record(z.string(), z.number().int()) })
  .meta({ id: 'SuggestionQueue' });
export type QueueResult = z.infer<typeof QueueResult>;

export const QueueQuery = z.object({
  kind: z.string().trim().min(1).max(60).optional(),
  document_id: z.string().regex(ID_PATTERN).optional(),
  value: z.string().trim().min(1).max(500).optional().describe('Only suggestions whose text is this (case and diacritics ignored)'),
});
export type QueueQuery = z.infer<typeof QueueQuery>;

export const ValueDecisionBody = z.strictObject({
  decision: z.enum(['accept', 'reject']),
  value: z.string().trim().min(1).max(500),
  kind: z.string().trim().min(1).max(60).optional(),
  reason: z.string().max(2000).optional(),
});
export type ValueDecisionBody = z.infer<typeof ValueDecisionBody>;

export const ValueDecisionResult = z.object({ decided: z.number().int(), documents: z.number().int() }).meta({ id: 'ValueDecisionResult' });
