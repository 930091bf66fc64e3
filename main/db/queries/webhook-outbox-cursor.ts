import type { Executor } from './executor.js';

/** Id of the last outbox event fanned out to webhook deliveries (the single row written by migration 007). */
export async function getWebhookOutboxCursor(db: Executor): Promise<number> {
  const row = await db.selectFrom('webhook_outbox_cursor').select('last_event_id').where('id', '=', 1).executeTakeFirst();
  return row?.last_event_id ?? 0;
}

export async function setWebhookOutboxCursor(db: Executor, lastEventId: number): Promise<void> {
  await db
    .insertInto('webhook_outbox_cursor')
    .values({ id: 1, last_event_id: lastEventId })
    .onConflict((oc) => oc.column('id').doUpdateSet({ last_event_id: lastEventId }))
    .execute();
}
