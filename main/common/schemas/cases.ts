import { z } from 'zod';
import { Timestamp } from './shared.js';

export const CASE_STATUSES = ['open', 'in_progress', 'in_review', 'approved', 'rejected', 'cancelled', 'deleted'] as const;
export const CASE_ACTIONS = ['start', 'submit', 'approve', 'reject', 'cancel'] as const;
export const CASE_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export type CaseStatus = (typeof CASE_STATUSES)[number];
export type CaseAction = (typeof CASE_ACTIONS)[number];

/** A date (YYYY-MM-DD) or a date-time with offset, both ISO 8601. */
export const DueDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]).describe('ISO 8601 date or date-time');

export const Case = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    status: z.enum(CASE_STATUSES),
    priority: z.enum(CASE_PRIORITIES),
    dueDate: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    deleted_at: Timestamp.nullable(),
  })
  .meta({ id: 'Case' });
export type Case = z.infer<typeof Case>;

export const CreateCaseBody = z.strictObject({
  name: z.string().trim().min(1).max(500),
  description: z.string().max(20_000).optional(),
  priority: z.enum(CASE_PRIORITIES).optional(),
  dueDate: DueDate.nullable().optional(),
});
export type CreateCaseBody = z.infer<typeof CreateCaseBody>;

export const UpdateCaseBody = z
  .strictObject({
    status: z.enum(CASE_STATUSES).optional(),
    priority: z.enum(CASE_PRIORITIES).optional(),
    dueDate: DueDate.nullable().optional(),
    description: z.string().max(20_000).optional(),
    name: z.string().trim().min(1).max(500).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateCaseBody = z.infer<typeof UpdateCaseBody>;

export const CaseActionBody = z.strictObject({ action: z.enum(CASE_ACTIONS) });
