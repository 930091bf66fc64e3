import { z } from 'zod';
import { Timestamp } from './shared.js';
import { CaseRelease, Day, RequestClock, RequesterContact } from './request-clock.js';

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
    dueDate: z.string().nullable().describe('With a received date: the statutory due date, computed (read-only)'),
    receivedDate: Day.nullable(),
    timeLimitDays: z.number().int().nullable().describe("null: the organization's time limit"),
    requester: RequesterContact.nullable(),
    clock: RequestClock,
    release: CaseRelease.nullable(),
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
  receivedDate: Day.nullable().optional(),
  timeLimitDays: z.number().int().min(1).max(250).nullable().optional(),
  requester: RequesterContact.nullable().optional(),
});
export type CreateCaseBody = z.infer<typeof CreateCaseBody>;

export const UpdateCaseBody = z
  .strictObject({
    status: z.enum(CASE_STATUSES).optional(),
    priority: z.enum(CASE_PRIORITIES).optional(),
    dueDate: DueDate.nullable().optional(),
    description: z.string().max(20_000).optional(),
    name: z.string().trim().min(1).max(500).optional(),
    receivedDate: Day.nullable().optional(),
    timeLimitDays: z.number().int().min(1).max(250).nullable().optional(),
    requester: RequesterContact.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateCaseBody = z.infer<typeof UpdateCaseBody>;

/** The optional note of an approval (and of any status change or re-approval), kept in the case's history. */
export const ApprovalNote = z.string().trim().min(1).max(2000).optional().describe("Kept with the status change in the case's history, e.g. the approver's note");

export const CaseActionBody = z.strictObject({
  action: z.enum(CASE_ACTIONS),
  note: ApprovalNote,
});

const Flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** GET /cases filters and order (docs/api.md, Cases). */
export const CaseListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(512).optional(),
  status: z
    .string()
    .max(200)
    .transform((value, context) => {
      const parts = value.split(',').map((part) => part.trim()).filter(Boolean);
      const unknown = parts.filter((part) => !(CASE_STATUSES as readonly string[]).includes(part));
      if (unknown.length > 0) context.addIssue({ code: 'custom', message: `unknown status ${unknown.join(', ')}; use ${CASE_STATUSES.join(', ')}` });
      return parts as CaseStatus[];
    })
    .optional()
    .describe('Comma-separated statuses'),
  overdue: Flag.optional().describe('true: only cases whose running clock is past its due date'),
  due_before: Day.optional().describe('Only cases due on or before this day'),
  released: Flag.optional().describe('true: only cases with a completed release; false: only those without'),
  sort: z.enum(['id', 'due_date']).default('id').describe('due_date: soonest first, cases without one last'),
});
export type CaseListQuery = z.infer<typeof CaseListQuery>;
