import type { Insertable } from 'kysely';
import type { OutboxEventsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertOutboxEvent(db: Executor, values: Insertable<OutboxEventsTable>): Promise<void> {
  await db.insertInto('outbox_events').values(values).execute();
}

export function listOutboxEvents(db: Executor, organizationId: number) {
  return db.selectFrom('outbox_events').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}
