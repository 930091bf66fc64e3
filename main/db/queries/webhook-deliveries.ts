import type { Insertable, Updateable } from 'kysely';
import type { WebhookDeliveriesTable, WebhookDeliveryRow } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

/** A delivery with the outbox event it carries. */
export type DeliveryWithEvent = WebhookDeliveryRow & { event_id: string; event_type: string; event_payload: string; event_created_at: string };

function withEvent(db: Executor) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('outbox_events', 'outbox_events.id', 'webhook_deliveries.outbox_event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .selectAll('webhook_deliveries')
    .select([
      'outbox_events.event_id as event_id',
      'outbox_events.type as event_type',
      'outbox_events.payload as event_payload',
      'outbox_events.created_at as event_created_at',
    ]);
}

/** Inserts unless the event was already fanned out to the endpoint; returns whether a row was added. */
export async function insertWebhookDelivery(db: Executor, values: Insertable<WebhookDeliveriesTable>): Promise<number | undefined> {
  const row = await db.insertInto('webhook_deliveries').values(values).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
  return row?.id;
}

/** A delivery of a live endpoint of the organization. */
export function findWebhookDelivery(db: Executor, organizationId: number, id: number): Promise<DeliveryWithEvent | undefined> {
  return withEvent(db)
    .where('webhook_deliveries.organization_id', '=', organizationId)
    .where('webhook_deliveries.id', '=', id)
    .where('webhook_endpoints.deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findWebhookDeliveryById(db: Executor, id: number): Promise<DeliveryWithEvent | undefined> {
  return withEvent(db).where('webhook_deliveries.id', '=', id).executeTakeFirst();
}

export function pageEndpointDeliveries(
  db: Executor,
  organizationId: number,
  endpointId: number,
  status: WebhookDeliveryRow['status'] | undefined,
  page: PageRequest,
) {
  let query = withEvent(db).where('webhook_deliveries.organization_id', '=', organizationId).where('webhook_deliveries.endpoint_id', '=', endpointId);
  if (status) query = query.where('webhook_deliveries.status', '=', status);
  return fetchPage(query, 'webhook_deliveries.id', page);
}

/** Pending deliveries due by `now` whose endpoint is enabled and live, the longest waiting first. */
export function listDueWebhookDeliveries(db: Executor, now: string, limit: number): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .selectAll('webhook_deliveries')
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_deliveries.next_attempt_at', '<=', now)
    .where('webhook_endpoints.enabled', '=', 1)
    .where('webhook_endpoints.deleted_at', 'is', null)
    .orderBy('webhook_deliveries.next_attempt_at')
    .orderBy('webhook_deliveries.id')
    .limit(limit)
    .execute();
}

/** Changes a delivery only while it has the expected status; returns whether it did. */
export async function updateWebhookDeliveryIfStatus(
  db: Executor,
  id: number,
  status: WebhookDeliveryRow['status'],
  values: Updateable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const result = await db.updateTable('webhook_deliveries').set(values).where('id', '=', id).where('status', '=', status).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends every pending delivery of an endpoint (disabled or deleted). */
export async function failPendingDeliveriesOfEndpoint(
  db: Executor,
  endpointId: number,
  reason: NonNullable<WebhookDeliveryRow['failure_reason']>,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', failure_reason: reason, next_attempt_at: null, completed_at: now, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deliveries a stopped or killed process left `delivering` are due again at once. */
export async function requeueDeliveringDeliveries(db: Executor, now: string): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, updated_at: now })
    .where('status', '=', 'delivering')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Removes deliveries that finished before the cutoff, with their attempts. A delivery that a newer replay
 * points to stays until that replay goes too (replays are removed first, in the same call).
 */
export async function deleteFinishedDeliveriesBefore(db: Executor, cutoff: string): Promise<number> {
  let removed = 0;
  // Two passes: replays first, then the originals they no longer hold.
  for (let pass = 0; pass < 2; pass += 1) {
    const finished = db
      .selectFrom('webhook_deliveries as d')
      .select('d.id')
      .where('d.status', 'in', ['succeeded', 'failed'])
      .where('d.completed_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as r').select('r.id').whereRef('r.replay_of', '=', 'd.id'))));
    await db.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', finished).execute();
    const result = await db.deleteFrom('webhook_deliveries').where('id', 'in', finished).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
