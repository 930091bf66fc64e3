import { z } from 'zod';
import { Timestamp } from './shared.js';

// The audit trail view of a case (docs/api.md, Audit trail).

export const AuditChange = z
  .object({
    redaction_id: z.string(),
    change: z.enum(['created', 'updated', 'deleted']),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditChange' });

export const AuditEntry = z
  .object({
    id: z.string(),
    at: Timestamp,
    actor: z.object({ type: z.string(), id: z.string(), name: z.string().nullable() }),
    action: z.string(),
    resource_type: z.string(),
    resource_id: z.string(),
    document_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    changes: z.array(AuditChange).optional().describe('Redaction changes: each box before and after (at most 200)'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
  document_id: z.string().regex(/^[1-9][0-9]{0,15}$/).optional(),
  action: z.string().trim().min(1).max(100).optional().describe('Prefix of the action, e.g. redactions. or case.status_change'),
  actor: z.string().trim().min(1).max(200).optional().describe('type:id, e.g. user:3'),
});
export type AuditQuery = z.infer<typeof AuditQuery>;
