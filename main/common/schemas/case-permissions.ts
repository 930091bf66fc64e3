import { z } from 'zod';
import { Timestamp } from './shared.js';

// What the caller may do on a case now (GET /cases/{id}/permissions), so a client offers only that
// (docs/api.md, Case permissions). The server still checks every request; this is advice, not the rule.

export const CASE_PERMISSION_ACTIONS = [
  'start',
  'submit',
  'approve',
  'reject',
  'cancel',
  'reapprove',
  'edit_case',
  'upload',
  'process',
  'edit_redactions',
  'release',
  'override',
  'manage_settings',
] as const;
export type CasePermissionAction = (typeof CASE_PERMISSION_ACTIONS)[number];

const Permission = z.object({ allowed: z.boolean(), reason: z.string().nullable().describe('Why not, in words for the user; null when allowed') });

export const CasePermissions = z
  .object({
    case_id: z.string(),
    actor: z.object({ type: z.string(), id: z.string() }),
    scopes: z.array(z.string()),
    actions: z.object(Object.fromEntries(CASE_PERMISSION_ACTIONS.map((name) => [name, Permission])) as Record<CasePermissionAction, typeof Permission>),
    approval: z
      .object({
        approved_at: Timestamp,
        approved_by: z.object({ type: z.string(), id: z.string() }),
        note: z.string().nullable(),
        reopened: z.boolean().describe('Redactions or withholdings changed after the approval: it must be given again'),
        changed_document_ids: z.array(z.string()),
        withholding_changes: z.number().int(),
      })
      .nullable(),
  })
  .meta({ id: 'CasePermissions' });
export type CasePermissions = z.infer<typeof CasePermissions>;
