import type { Insertable, Updateable } from 'kysely';
import type { WebhookDeliveryAttemptRow, WebhookDeliveryAttemptsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertWebhookDeliveryAttempt(db: Executor, values: Insertable<WebhookDeliveryAttemptsTable>): Promise<number> {
  const row = await db.insertInto('webhook_delivery_attempts').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateWebhookDeliveryAttempt(db: Executor, id: number, values: Updateable<WebhookDeliveryAttemptsTable>): Promise<void> {
  await db.updateTable('webhook_delivery_attempts').set(values).where('id', '=', id).execute();
}

export function listWebhookDeliveryAttempts(db: Executor, organizationId: number, deliveryId: number): Promise<WebhookDeliveryAttemptRow[]> {
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('number')
    .execute();
}

/** Attempts a stopped or killed process left without an outcome become `interrupted`. */
export async function interruptInFlightAttempts(db: Executor, finishedAt: string, error: string): Promise<number> {
  const result = await db
    .updateTable('webhook_delivery_attempts')
    .set({ outcome: 'interrupted', finished_at: finishedAt, error })
    .where('outcome', '=', 'in_flight')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
