import type { Insertable } from 'kysely';
import type { OutboxEventsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertOutboxEvent(db: Executor, values: Insertable<OutboxEventsTable>): Promise<void> {
  await db.insertInto('outbox_events').values(values).execute();
}

export function listOutboxEvents(db: Executor, organizationId: number) {
  return db.selectFrom('outbox_events').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}

/** Events of every organization after `afterId`, oldest first: the webhook fan-out reads the outbox in order. */
export function listOutboxEventsAfter(db: Executor, afterId: number, limit: number) {
  return db.selectFrom('outbox_events').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export async function latestOutboxEventId(db: Executor): Promise<number> {
  const row = await db.selectFrom('outbox_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return row?.id ?? 0;
}
