import type { CaseClockEventRow, Database } from '../schema.js';
import type { Insertable } from 'kysely';
import type { Executor } from './executor.js';

export async function insertClockEvent(db: Executor, values: Insertable<Database['case_clock_events']>): Promise<number> {
  const row = await db.insertInto('case_clock_events').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A case's clock events in the order they were recorded. */
export function listClockEvents(db: Executor, organizationId: number, caseId: number): Promise<CaseClockEventRow[]> {
  return db.selectFrom('case_clock_events').selectAll().where('organization_id', '=', organizationId).where('case_id', '=', caseId).orderBy('id').execute();
}
