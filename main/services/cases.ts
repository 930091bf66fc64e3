import type { Executor } from '../db/queries/executor.js';
import type { CaseRow } from '../db/schema.js';
import { findCase, insertCase, listCases, updateCase } from '../db/queries/cases.js';
import { listClockEvents } from '../db/queries/case-clock-events.js';
import type { PageRequest } from '../db/queries/page.js';
import { DomainError, notFound } from '../common/errors.js';
import type { Case, CaseAction, CaseListQuery, CaseStatus, CreateCaseBody, UpdateCaseBody } from '../common/schemas/cases.js';
import type { RequestClock, RequesterContact } from '../common/schemas/request-clock.js';
import { clocksOf, nextDay, refreshDueDate, rowClock, todayOf } from './request-clock/index.js';
import { recordChange } from './change-log.js';
import { assertCallerMayApprove } from './releases/separation.js';
import { isoNow, type ServiceContext } from './context.js';
import { requireCase } from './case-lookup.js';

/** Which action moves a case from which statuses to which status. The single source of the workflow. */
export const CASE_TRANSITIONS: Readonly<Record<CaseAction, { from: readonly CaseStatus[]; to: CaseStatus }>> = {
  start: { from: ['open', 'rejected'], to: 'in_progress' },
  submit: { from: ['in_progress'], to: 'in_review' },
  approve: { from: ['in_review'], to: 'approved' },
  reject: { from: ['in_review'], to: 'rejected' },
  cancel: { from: ['open', 'in_progress', 'in_review', 'rejected'], to: 'cancelled' },
};

export function actionsAllowedFrom(status: CaseStatus): CaseAction[] {
  return (Object.keys(CASE_TRANSITIONS) as CaseAction[]).filter((action) => CASE_TRANSITIONS[action].from.includes(status));
}

/** A case resource; `clock` defaults to what the row alone tells (payloads not read against a day). */
export function toCase(row: CaseRow, clock: RequestClock = rowClock(row)): Case {
  return {
    id: String(row.id),
    name: row.name,
    description: row.description,
    status: row.status as CaseStatus,
    priority: row.priority as Case['priority'],
    dueDate: row.due_date,
    receivedDate: row.received_date,
    timeLimitDays: row.time_limit_days,
    requester: row.requester === null ? null : (JSON.parse(row.requester) as RequesterContact),
    clock,
    release: row.last_release_number !== null && row.last_released_at !== null ? { number: row.last_release_number, released_at: row.last_released_at } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}

// Loads a case of the caller's organization or throws 404; deleted cases are still found. */
export { requireCase };

/** Like requireCase, but a deleted case cannot be changed. */
async function requireLiveCase(db: Executor, ctx: ServiceContext, caseId: number): Promise<CaseRow> {
  const row = await requireCase(db, ctx, caseId);
  if (row.deleted_at) throw new DomainError('conflict', 'the case is deleted and cannot be changed');
  return row;
}

/** A hand-set due date and the statutory clock cannot both decide when a case is due. */
function rejectDueDateWithClock(receivedDate: string | null | undefined, dueDate: string | null | undefined) {
  if (receivedDate && dueDate !== undefined && dueDate !== null) {
    throw new DomainError('validation_error', 'dueDate is computed from receivedDate and the time limit; send one or the other', [
      { field: 'dueDate', location: 'body', message: 'leave dueDate out when the case has a received date' },
    ]);
  }
}

/** The clock of one case read against today. */
export async function caseWithClock(db: Executor, ctx: ServiceContext, row: CaseRow): Promise<Case> {
  const [clock] = await clocksOf(db, ctx, [row]);
  return toCase(row, clock);
}

export async function createCase(db: Executor, ctx: ServiceContext, body: CreateCaseBody): Promise<Case> {
  rejectDueDateWithClock(body.receivedDate, body.dueDate);
  const now = isoNow(ctx);
  const id = await insertCase(db, {
    organization_id: ctx.actor.organizationId,
    name: body.name,
    description: body.description ?? '',
    status: 'open',
    priority: body.priority ?? 'normal',
    due_date: body.receivedDate ? null : (body.dueDate ?? null),
    received_date: body.receivedDate ?? null,
    time_limit_days: body.timeLimitDays ?? null,
    requester: body.requester ? JSON.stringify(body.requester) : null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  if (body.receivedDate) await refreshDueDate(db, ctx, await requireCase(db, ctx, id));
  const created = await caseWithClock(db, ctx, await requireCase(db, ctx, id));
  await recordChange(db, ctx, { action: 'case.create', resourceType: 'case', resourceId: id, event: { type: 'case.created', payload: { case: created } } });
  return created;
}

/**
 * The read path of GET /cases/{id}: synchronous when findCase has the row at hand (the common case), so
 * the request pays for no promise; otherwise a promise. Same 404 rule as requireCase.
 */
export function getCase(db: Executor, ctx: ServiceContext, caseId: number): Case | Promise<Case> {
  const row = findCase(db, ctx.actor.organizationId, caseId);
  const finish = caseOrNotFound(db, ctx);
  return row instanceof Promise ? row.then(finish) : finish(row);
}

function caseOrNotFound(db: Executor, ctx: ServiceContext) {
  return (row: CaseRow | undefined): Case | Promise<Case> => {
    if (!row) throw notFound('case');
    // Without a statutory clock the row tells all, and the read stays synchronous.
    return row.received_date === null ? toCase(row, rowClock(row, todayOf(ctx))) : caseWithClock(db, ctx, row);
  };
}

export async function listCasePage(db: Executor, ctx: ServiceContext, page: PageRequest, query: Omit<CaseListQuery, 'limit' | 'cursor'> = { sort: 'id' }) {
  const today = todayOf(ctx);
  const result = await listCases(db, ctx.actor.organizationId, page, {
    statuses: query.status,
    overdueBefore: query.overdue === true ? today : undefined,
    notOverdueBefore: query.overdue === false ? today : undefined,
    dueBefore: query.due_before === undefined ? undefined : nextDay(query.due_before),
    released: query.released,
    sort: query.sort,
  });
  const clocks = await clocksOf(db, ctx, result.rows);
  return { items: result.rows.map((row, index) => toCase(row, clocks[index])), nextAfterId: result.nextAfterId };
}

function transitionFor(current: CaseStatus, target: CaseStatus): CaseAction | undefined {
  return (Object.keys(CASE_TRANSITIONS) as CaseAction[]).find(
    (action) => CASE_TRANSITIONS[action].to === target && CASE_TRANSITIONS[action].from.includes(current),
  );
}

function invalidTransition(current: CaseStatus, attempted: string): DomainError {
  return new DomainError('invalid_transition', `cannot ${attempted} a case whose status is ${current}`, {
    status: current,
    allowed_actions: actionsAllowedFrom(current),
  });
}

export async function updateCaseFields(db: Executor, ctx: ServiceContext, caseId: number, body: UpdateCaseBody): Promise<Case> {
  const row = await requireLiveCase(db, ctx, caseId);
  const receivedDate = body.receivedDate === undefined ? row.received_date : body.receivedDate;
  rejectDueDateWithClock(receivedDate, body.dueDate);
  if (body.receivedDate) {
    const first = (await clockEventDays(db, ctx, caseId))[0];
    if (first !== undefined && first < body.receivedDate) {
      throw new DomainError('conflict', `the clock was paused or resumed on ${first}, before ${body.receivedDate}; a received date cannot come after the clock's own events`);
    }
  }
  const current = row.status as CaseStatus;
  const statusChanges = body.status !== undefined && body.status !== current;
  if (statusChanges && body.status && !transitionFor(current, body.status)) {
    throw invalidTransition(current, `move to ${body.status}`);
  }
  // A PATCH to `approved` is the `approve` transition: separation of duties applies to it as well.
  if (statusChanges && body.status === 'approved') await assertCallerMayApprove(db, ctx, caseId);
  const now = isoNow(ctx);
  await updateCase(db, ctx.actor.organizationId, caseId, {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.priority !== undefined && { priority: body.priority }),
    ...(body.dueDate !== undefined && { due_date: body.dueDate }),
    ...(body.receivedDate !== undefined && { received_date: body.receivedDate }),
    // Taking the clock away leaves no computed due date behind.
    ...(body.receivedDate === null && row.received_date !== null && body.dueDate === undefined && { due_date: null }),
    ...(body.timeLimitDays !== undefined && { time_limit_days: body.timeLimitDays }),
    ...(body.requester !== undefined && { requester: body.requester === null ? null : JSON.stringify(body.requester) }),
    ...(statusChanges && { status: body.status }),
    updated_at: now,
  });
  if (body.receivedDate !== undefined || body.timeLimitDays !== undefined) await refreshDueDate(db, ctx, await requireCase(db, ctx, caseId));
  const updated = await caseWithClock(db, ctx, await requireCase(db, ctx, caseId));
  const { status: _status, ...fieldChanges } = body;
  if (Object.keys(fieldChanges).length > 0) {
    await recordChange(db, ctx, {
      action: 'case.update',
      resourceType: 'case',
      resourceId: caseId,
      details: { fields: Object.keys(fieldChanges), changes: fieldChangesOf(row, fieldChanges) },
      event: { type: 'case.updated', payload: { case: updated, changed: Object.keys(fieldChanges) } },
    });
  }
  if (statusChanges) {
    await recordStatusChange(db, ctx, updated, current);
  }
  return updated;
}

async function clockEventDays(db: Executor, ctx: ServiceContext, caseId: number): Promise<string[]> {
  return (await listClockEvents(db, ctx.actor.organizationId, caseId)).map((event) => event.on_date).sort();
}

/** From → to of each changed field, for the history; the requester's contact is named, never copied. */
function fieldChangesOf(row: CaseRow, body: Omit<UpdateCaseBody, 'status'>): Record<string, { from: unknown; to: unknown }> {
  const before: Record<string, unknown> = {
    name: row.name,
    description: row.description,
    priority: row.priority,
    dueDate: row.due_date,
    receivedDate: row.received_date,
    timeLimitDays: row.time_limit_days,
  };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, value] of Object.entries(body)) {
    if (field === 'requester' || field === 'description') continue;
    changes[field] = { from: before[field] ?? null, to: value ?? null };
  }
  return changes;
}

async function recordStatusChange(db: Executor, ctx: ServiceContext, updated: Case, previous: CaseStatus, action?: CaseAction, note?: string) {
  await recordChange(db, ctx, {
    action: 'case.status_change',
    resourceType: 'case',
    resourceId: updated.id,
    details: { from: previous, to: updated.status, ...(action && { action }), ...(note && { note }) },
    event: { type: 'case.status_changed', payload: { case: updated, previous_status: previous, ...(action && { action }) } },
  });
}

export async function applyCaseAction(db: Executor, ctx: ServiceContext, caseId: number, action: CaseAction, note?: string): Promise<Case> {
  const row = await requireCase(db, ctx, caseId);
  const current = row.status as CaseStatus;
  const transition = CASE_TRANSITIONS[action];
  if (!transition.from.includes(current)) throw invalidTransition(current, action);
  // Whoever shaped the release may not approve it (releases/separation.ts), unless the organization turned the
  // separation_of_duties safeguard off; the permissions endpoint refuses the same callers in the same words.
  if (action === 'approve') await assertCallerMayApprove(db, ctx, caseId);
  await updateCase(db, ctx.actor.organizationId, caseId, { status: transition.to, updated_at: isoNow(ctx) });
  const updated = await caseWithClock(db, ctx, await requireCase(db, ctx, caseId));
  await recordStatusChange(db, ctx, updated, current, action, note);
  return updated;
}

/** Soft delete: the row stays for the audit trail, its status becomes `deleted`. Deleting again changes nothing. */
export async function deleteCase(db: Executor, ctx: ServiceContext, caseId: number): Promise<void> {
  const row = await requireCase(db, ctx, caseId);
  if (row.deleted_at) return;
  const now = isoNow(ctx);
  await updateCase(db, ctx.actor.organizationId, caseId, { status: 'deleted', deleted_at: now, updated_at: now });
  const deleted = toCase(await requireCase(db, ctx, caseId));
  await recordChange(db, ctx, {
    action: 'case.delete',
    resourceType: 'case',
    resourceId: caseId,
    details: { previous_status: row.status },
    event: { type: 'case.deleted', payload: { case: deleted, previous_status: row.status } },
  });
}

