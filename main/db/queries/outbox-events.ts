import type { Insertable } from 'kysely';
import type { OutboxEventsTable } from '../schema.js';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Executor } from './executor.js';

/** Key of the transaction lock that orders outbox inserts (advisory namespace of main/db/locks.ts). */
const OUTBOX_ORDER_LOCK = sql`pg_advisory_xact_lock(${0x0b5c}, 0)`;

/**
 * The webhook fan-out reads the outbox after a cursor, in id order, so ids must become visible in the order
 * they were given. SQLite has one writer at a time, so they do. On PostgreSQL a sequence hands out ids at
 * insert, and a transaction that took id 7 may commit after one that took id 8: a cursor already past 8 would
 * skip 7 for good. A transaction-level advisory lock taken just before the insert and held until commit or
 * rollback makes event-writing transactions take ids and commit one after another from this point on.
 */
export async function insertOutboxEvent(db: Executor, values: Insertable<OutboxEventsTable>): Promise<void> {
  if (isPostgres(db)) await sql`SELECT ${OUTBOX_ORDER_LOCK}`.execute(db);
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
