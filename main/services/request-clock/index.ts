import { addDays, format } from 'date-fns';
import type { Executor } from '../../db/queries/executor.js';
import type { CaseClockEventRow, CaseRow } from '../../db/schema.js';
import { insertClockEvent, listClockEvents } from '../../db/queries/case-clock-events.js';
import { findClockSettings, putClockSettings } from '../../db/queries/request-clock-settings.js';
import { listClockedCases, updateCase } from '../../db/queries/cases.js';
import { DomainError } from '../../common/errors.js';
import {
  DEFAULT_TIME_LIMIT_DAYS,
  type ClockEvent,
  type ClockEventBody,
  type ClockSettings,
  type RequestClock,
  type UpdateClockSettingsBody,
} from '../../common/schemas/request-clock.js';
import { recordChange } from '../change-log.js';
import { isoNow, type ServiceContext } from '../context.js';
import { computeClock, parseDay } from './business-days.js';

// The request's statutory clock of a case (docs/api.md, Request clock): figures are computed from the
// received date, the organization's settings and the case's events; the due date is also stored on the case
// (cases.due_date) so that lists filter and sort on it.

/** Today in the office's calendar: the server's local day (the workstation sits in the office). */
export function todayOf(ctx: { clock: { now(): Date } }): string {
  return format(ctx.clock.now(), 'yyyy-MM-dd');
}

export function nextDay(value: string): string {
  const date = parseDay(value);
  if (!date) throw new Error(`not a calendar day: ${value}`);
  return format(addDays(date, 1), 'yyyy-MM-dd');
}

export async function clockSettingsOf(db: Executor, organizationId: number): Promise<ClockSettings> {
  const row = await findClockSettings(db, organizationId);
  if (!row) return { time_limit_days: DEFAULT_TIME_LIMIT_DAYS, holidays: [], updated_at: null };
  return { time_limit_days: row.time_limit_days, holidays: JSON.parse(row.holidays) as string[], updated_at: row.updated_at };
}

/**
 * Cancelled or deleted: closed. Released while approved: answered. A case taken back into work after a
 * release (an interim release, more records to come) has its clock running again.
 */
function closedOrAnswered(row: CaseRow): 'closed' | 'answered' | null {
  if (row.status === 'cancelled' || row.status === 'deleted' || row.deleted_at) return 'closed';
  return row.last_release_number !== null && row.status === 'approved' ? 'answered' : null;
}

/** The clock as far as the row alone tells (no clock, or a payload not read against a day). */
export function rowClock(row: CaseRow, today?: string): RequestClock {
  const stopped = closedOrAnswered(row);
  const due = row.due_date;
  // Without a statutory clock a hand-set due date still makes a case overdue, by the same rule as the list filter.
  const overdue = today !== undefined && stopped === null && due !== null && due.slice(0, 10) < today;
  return {
    state: row.received_date === null ? (stopped === 'closed' ? 'closed' : 'none') : (stopped ?? (row.tolled_since ? 'tolled' : 'running')),
    received_date: row.received_date,
    time_limit_days: row.time_limit_days,
    extension_days: null,
    tolled_days: null,
    tolled_since: row.tolled_since,
    toll_reason: null,
    due_date: row.received_date === null ? null : due,
    days_left: null,
    overdue,
  };
}

/** The full clock of a clocked case, read against today. */
export function fullClock(row: CaseRow, settings: ClockSettings, events: readonly CaseClockEventRow[], today: string): RequestClock {
  if (row.received_date === null) return rowClock(row, today);
  const limit = row.time_limit_days ?? settings.time_limit_days;
  const figures = computeClock({ receivedDate: row.received_date, timeLimitDays: limit, holidays: new Set(settings.holidays), events, today });
  const stopped = closedOrAnswered(row);
  const lastToll = [...events].reverse().find((event) => event.kind === 'toll');
  return {
    state: stopped ?? (figures.tolled_since ? 'tolled' : 'running'),
    received_date: row.received_date,
    time_limit_days: limit,
    extension_days: figures.extension_days,
    tolled_days: figures.tolled_days,
    tolled_since: figures.tolled_since,
    toll_reason: figures.tolled_since && lastToll ? lastToll.reason : null,
    due_date: figures.due_date,
    days_left: stopped ? null : figures.days_left,
    overdue: stopped ? false : figures.overdue,
  };
}

/** Reads what the clock of each row needs (settings once, events per clocked case) and computes it. */
export async function clocksOf(db: Executor, ctx: ServiceContext, rows: readonly CaseRow[]): Promise<RequestClock[]> {
  const today = todayOf(ctx);
  if (rows.every((row) => row.received_date === null)) return rows.map((row) => rowClock(row, today));
  const settings = await clockSettingsOf(db, ctx.actor.organizationId);
  return Promise.all(
    rows.map(async (row) => (row.received_date === null ? rowClock(row, today) : fullClock(row, settings, await listClockEvents(db, ctx.actor.organizationId, row.id), today))),
  );
}

/** The due date the case row should hold after a change of its clock; writes it and the toll state. */
export async function refreshDueDate(db: Executor, ctx: ServiceContext, row: CaseRow, settings?: ClockSettings): Promise<void> {
  if (row.received_date === null) {
    if (row.tolled_since !== null) await updateCase(db, ctx.actor.organizationId, row.id, { tolled_since: null });
    return;
  }
  const events = await listClockEvents(db, ctx.actor.organizationId, row.id);
  const clock = fullClock(row, settings ?? (await clockSettingsOf(db, ctx.actor.organizationId)), events, todayOf(ctx));
  await updateCase(db, ctx.actor.organizationId, row.id, { due_date: clock.due_date, tolled_since: clock.tolled_since });
}

export function toClockEvent(row: CaseClockEventRow): ClockEvent {
  return { id: String(row.id), case_id: String(row.case_id), kind: row.kind, on_date: row.on_date, days: row.days, reason: row.reason, created_by: row.created_by, created_at: row.created_at };
}

export function caseClockEvents(db: Executor, ctx: ServiceContext, caseId: number): Promise<ClockEvent[]> {
  return listClockEvents(db, ctx.actor.organizationId, caseId).then((rows) => rows.map(toClockEvent));
}

/** Validates and records a toll, resume or extension; the caller has checked the case is live. */
export async function addClockEvent(db: Executor, ctx: ServiceContext, row: CaseRow, body: ClockEventBody): Promise<void> {
  const today = todayOf(ctx);
  if (row.received_date === null) {
    throw new DomainError('conflict', 'the case has no received date, so it has no clock to pause or extend; set receivedDate on the case first');
  }
  const stopped = closedOrAnswered(row);
  if (stopped === 'closed') throw new DomainError('conflict', 'the case is cancelled; its clock no longer runs');
  if (stopped === 'answered') throw new DomainError('conflict', `release ${row.last_release_number} answered the request; take the case back into work to run its clock again`);
  const onDate = body.kind === 'extend' ? today : (body.on_date ?? today);
  if (body.kind !== 'extend') {
    if (onDate > today) throw invalidDay(`on_date ${onDate} is in the future; record a pause or resume on the day it happens`);
    if (onDate < row.received_date) throw invalidDay(`on_date ${onDate} is before the request was received (${row.received_date})`);
  }
  const events = await listClockEvents(db, ctx.actor.organizationId, row.id);
  const tolledSince = row.tolled_since;
  if (body.kind === 'toll') {
    if (tolledSince !== null) throw new DomainError('conflict', `the clock is already paused since ${tolledSince}; resume it first`);
    const lastResume = [...events].reverse().find((event) => event.kind === 'resume');
    if (lastResume && onDate < lastResume.on_date) throw invalidDay(`on_date ${onDate} is before the clock last resumed (${lastResume.on_date})`);
  }
  if (body.kind === 'resume') {
    if (tolledSince === null) throw new DomainError('conflict', 'the clock is running; there is no pause to resume');
    if (onDate < tolledSince) throw invalidDay(`on_date ${onDate} is before the pause began (${tolledSince})`);
  }
  const reason = body.reason ?? '';
  const id = await insertClockEvent(db, {
    organization_id: ctx.actor.organizationId,
    case_id: row.id,
    kind: body.kind,
    on_date: onDate,
    days: body.kind === 'extend' ? body.days : null,
    reason,
    created_by: ctx.actor.id,
    created_at: isoNow(ctx),
  });
  await refreshDueDate(db, ctx, row);
  await recordChange(db, ctx, {
    action: `case.clock_${body.kind}`,
    resourceType: 'case',
    resourceId: row.id,
    details: { event_id: String(id), on_date: onDate, ...(body.kind === 'extend' && { days: body.days }), reason },
  });
}

function invalidDay(message: string): DomainError {
  return new DomainError('validation_error', message, [{ field: 'on_date', location: 'body', message }]);
}

export async function updateClockSettings(db: Executor, ctx: ServiceContext, body: UpdateClockSettingsBody): Promise<ClockSettings> {
  const current = await clockSettingsOf(db, ctx.actor.organizationId);
  const next: ClockSettings = {
    time_limit_days: body.time_limit_days ?? current.time_limit_days,
    holidays: body.holidays ? [...new Set(body.holidays)].sort() : current.holidays,
    updated_at: isoNow(ctx),
  };
  await putClockSettings(db, { organization_id: ctx.actor.organizationId, time_limit_days: next.time_limit_days, holidays: JSON.stringify(next.holidays), updated_at: next.updated_at ?? isoNow(ctx) });
  // Every clocked case's due date follows the new calendar; writing each row also tells other processes.
  for (const row of await listClockedCases(db, ctx.actor.organizationId)) await refreshDueDate(db, ctx, row, next);
  const added = next.holidays.filter((day) => !current.holidays.includes(day));
  const removed = current.holidays.filter((day) => !next.holidays.includes(day));
  await recordChange(db, ctx, {
    action: 'clock_settings.update',
    resourceType: 'clock_settings',
    resourceId: ctx.actor.organizationId,
    details: { time_limit_days: { from: current.time_limit_days, to: next.time_limit_days }, holidays_added: added, holidays_removed: removed },
  });
  return next;
}
