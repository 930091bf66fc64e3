import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/queries/executor.js';
import { insertAuditRecord } from '../db/queries/audit-log.js';
import { insertOutboxEvent } from '../db/queries/outbox-events.js';
import { isoNow, type ServiceContext } from './context.js';

export interface Change {
  action: string;
  resourceType: string;
  resourceId: number | string;
  details?: Record<string, unknown>;
  /** Domain event for webhooks; written to the outbox in the same transaction as the change. */
  event?: { type: string; payload: Record<string, unknown> };
}

/** Writes the audit record and the outbox event of one change; call inside the change's transaction. */
export async function recordChange(db: Executor, ctx: ServiceContext, change: Change): Promise<void> {
  const now = isoNow(ctx);
  const resourceId = String(change.resourceId);
  await insertAuditRecord(db, {
    organization_id: ctx.actor.organizationId,
    actor_type: ctx.actor.type,
    actor_id: ctx.actor.id,
    action: change.action,
    resource_type: change.resourceType,
    resource_id: resourceId,
    request_id: ctx.requestId,
    details: change.details ? JSON.stringify(change.details) : null,
    created_at: now,
  });
  if (change.event) {
    await insertOutboxEvent(db, {
      event_id: randomUUID(),
      organization_id: ctx.actor.organizationId,
      type: change.event.type,
      resource_type: change.resourceType,
      resource_id: resourceId,
      payload: JSON.stringify(change.event.payload),
      created_at: now,
    });
  }
}
