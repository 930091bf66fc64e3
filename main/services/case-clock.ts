import type { Executor } from '../db/queries/executor.js';
import { DomainError } from '../common/errors.js';
import type { CaseClock, ClockEventBody } from '../common/schemas/request-clock.js';
import { caseWithClock, requireCase } from './cases.js';
import type { ServiceContext } from './context.js';
import { addClockEvent, caseClockEvents } from './request-clock/index.js';

// GET /cases/{id}/clock and POST /cases/{id}/clock/events: a case's clock with the events behind it.

export async function getCaseClock(db: Executor, ctx: ServiceContext, caseId: number): Promise<CaseClock> {
  const row = await requireCase(db, ctx, caseId);
  const resource = await caseWithClock(db, ctx, row);
  return { case_id: String(caseId), clock: resource.clock, events: await caseClockEvents(db, ctx, caseId) };
}

export async function addCaseClockEvent(db: Executor, ctx: ServiceContext, caseId: number, body: ClockEventBody): Promise<CaseClock> {
  const row = await requireCase(db, ctx, caseId);
  if (row.deleted_at) throw new DomainError('conflict', 'the case is deleted and cannot be changed');
  await addClockEvent(db, ctx, row, body);
  return getCaseClock(db, ctx, caseId);
}
