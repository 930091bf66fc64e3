import type { Insertable, Updateable } from 'kysely';
import type { WebhookEndpointRow, WebhookEndpointsTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertWebhookEndpoint(db: Executor, values: Insertable<WebhookEndpointsTable>): Promise<number> {
  const row = await db.insertInto('webhook_endpoints').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A live (not deleted) endpoint of the organization. */
export function findWebhookEndpoint(db: Executor, organizationId: number, id: number): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function pageWebhookEndpoints(db: Executor, organizationId: number, page: PageRequest) {
  const query = db.selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
  return fetchPage(query, 'webhook_endpoints.id', page);
}

/** Endpoints that receive new events: enabled and not deleted. */
export function listEnabledWebhookEndpoints(db: Executor, organizationId: number): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('enabled', '=', 1)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function updateWebhookEndpoint(db: Executor, organizationId: number, id: number, values: Updateable<WebhookEndpointsTable>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
