import { z } from 'zod';
import { Timestamp } from './shared.js';

// The request's statutory clock, the requester's contact and the organization's clock settings
// (docs/api.md, Request clock). Days are YYYY-MM-DD in the office's calendar.

export const Day = z.iso.date().describe('A calendar day, YYYY-MM-DD');

export const CLOCK_STATES = ['none', 'running', 'tolled', 'answered', 'closed'] as const;
export const CLOCK_EVENT_KINDS = ['toll', 'resume', 'extend'] as const;

export const RequestClock = z
  .object({
    state: z.enum(CLOCK_STATES).describe('none: no received date; answered: a release went out; closed: cancelled or deleted'),
    received_date: Day.nullable(),
    time_limit_days: z.number().int().nullable().describe("Business days allowed: the case's own limit or the organization's; null without a clock"),
    extension_days: z.number().int().nullable(),
    tolled_days: z.number().int().nullable().describe('Business days the clock stood still so far'),
    tolled_since: Day.nullable(),
    toll_reason: z.string().nullable(),
    due_date: Day.nullable().describe('null without a clock and while tolled'),
    days_left: z.number().int().nullable().describe('Business days; 0 on the due date, negative once overdue; null without a running or tolled clock, and in webhook payloads and case records, which are not read against a day'),
    overdue: z.boolean(),
  })
  .meta({ id: 'RequestClock' });
export type RequestClock = z.infer<typeof RequestClock>;

const Line = z.string().trim().max(300);

export const RequesterContact = z
  .strictObject({
    name: Line.min(1),
    email: z.email().max(300).nullable().optional(),
    phone: Line.nullable().optional(),
    address: z.string().trim().max(1000).nullable().optional(),
    organization: Line.nullable().optional(),
  })
  .meta({ id: 'RequesterContact', description: 'Internal: never part of a release' });
export type RequesterContact = z.infer<typeof RequesterContact>;

export const CaseRelease = z
  .object({ number: z.number().int(), released_at: Timestamp })
  .meta({ id: 'CaseRelease', description: "The case's latest completed release" });

export const ClockEvent = z
  .object({
    id: z.string(),
    case_id: z.string(),
    kind: z.enum(CLOCK_EVENT_KINDS),
    on_date: Day,
    days: z.number().int().nullable(),
    reason: z.string(),
    created_by: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: 'ClockEvent' });
export type ClockEvent = z.infer<typeof ClockEvent>;

export const ClockEventBody = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('toll'), reason: z.string().trim().min(1).max(1000), on_date: Day.optional().describe('Default: today') }),
  z.strictObject({ kind: z.literal('resume'), reason: z.string().trim().max(1000).optional(), on_date: Day.optional().describe('Default: today') }),
  z.strictObject({ kind: z.literal('extend'), days: z.number().int().min(1).max(250), reason: z.string().trim().min(1).max(1000) }),
]);
export type ClockEventBody = z.infer<typeof ClockEventBody>;

export const CaseClock = z.object({ case_id: z.string(), clock: RequestClock, events: z.array(ClockEvent) }).meta({ id: 'CaseClock' });
export type CaseClock = z.infer<typeof CaseClock>;

export const DEFAULT_TIME_LIMIT_DAYS = 20;

export const ClockSettings = z
  .object({
    time_limit_days: z.number().int().min(1).max(250),
    holidays: z.array(Day).describe('Office holidays, sorted'),
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: 'ClockSettings' });
export type ClockSettings = z.infer<typeof ClockSettings>;

export const UpdateClockSettingsBody = z
  .strictObject({
    time_limit_days: z.number().int().min(1).max(250).optional(),
    holidays: z.array(Day).max(1000).optional().describe('Replaces the whole list'),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateClockSettingsBody = z.infer<typeof UpdateClockSettingsBody>;
