import type { Config } from '../config.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import type { WebhookEndpointRow } from '../db/schema.js';
import { latestOutboxEventId } from '../db/queries/outbox-events.js';
import { failPendingDeliveriesOfEndpoint } from '../db/queries/webhook-deliveries.js';
import { findWebhookEndpoint, insertWebhookEndpoint, pageWebhookEndpoints, updateWebhookEndpoint } from '../db/queries/webhook-endpoints.js';
import { notFound } from '../common/errors.js';
import type {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../common/schemas/webhooks.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { assertAllowedUrl } from './webhook-destinations.js';
import { generateWebhookSecret } from './webhook-signing.js';

export function parseEventTypes(row: Pick<WebhookEndpointRow, 'event_types'>): string[] {
  return JSON.parse(row.event_types) as string[];
}

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: String(row.id),
    url: row.url,
    description: row.description,
    enabled: row.enabled === 1,
    event_types: parseEventTypes(row),
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    secret_rotated_at: row.secret_rotated_at,
    store_response_body: row.store_response_body === 1,
    previous_secret_expires_at: row.previous_secret ? row.previous_secret_expires_at : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function requireWebhookEndpoint(db: Executor, ctx: ServiceContext, id: number): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('webhook endpoint');
  return row;
}

export async function createWebhookEndpoint(db: Executor, ctx: ServiceContext, body: CreateWebhookEndpointBody): Promise<WebhookEndpointWithSecret> {
  assertAllowedUrl(body.url);
  const now = isoNow(ctx);
  const secret = generateWebhookSecret();
  const enabled = body.enabled ?? true;
  const id = await insertWebhookEndpoint(db, {
    organization_id: ctx.actor.organizationId,
    url: body.url,
    description: body.description ?? '',
    event_types: JSON.stringify(body.event_types),
    enabled: enabled ? 1 : 0,
    secret,
    previous_secret: null,
    previous_secret_expires_at: null,
    secret_rotated_at: null,
    // Events already in the outbox happened before the endpoint existed.
    start_after_event_id: await latestOutboxEventId(db),
    failing_since: null,
    disabled_reason: enabled ? null : 'manual',
    disabled_at: enabled ? null : now,
    store_response_body: body.store_response_body ? 1 : 0,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  const endpoint = toWebhookEndpoint(await requireWebhookEndpoint(db, ctx, id));
  await recordChange(db, ctx, {
    action: 'webhook_endpoint.create',
    resourceType: 'webhook_endpoint',
    resourceId: id,
    details: { url: endpoint.url, event_types: endpoint.event_types },
    event: { type: 'webhook.endpoint_created', payload: { endpoint } },
  });
  return { ...endpoint, secret };
}

export async function listWebhookEndpointPage(db: Executor, ctx: ServiceContext, page: PageRequest) {
  const result = await pageWebhookEndpoints(db, ctx.actor.organizationId, page);
  return { items: result.rows.map(toWebhookEndpoint), nextAfterId: result.nextAfterId };
}

export async function getWebhookEndpoint(db: Executor, ctx: ServiceContext, id: number): Promise<WebhookEndpoint> {
  return toWebhookEndpoint(await requireWebhookEndpoint(db, ctx, id));
}

export async function updateWebhookEndpointFields(db: Executor, ctx: ServiceContext, id: number, body: UpdateWebhookEndpointBody): Promise<WebhookEndpoint> {
  const row = await requireWebhookEndpoint(db, ctx, id);
  if (body.url !== undefined) assertAllowedUrl(body.url);
  const now = isoNow(ctx);
  const wasEnabled = row.enabled === 1;
  const enabling = body.enabled === true && !wasEnabled;
  const disabling = body.enabled === false && wasEnabled;
  await updateWebhookEndpoint(db, ctx.actor.organizationId, id, {
    ...(body.url !== undefined && { url: body.url }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.event_types !== undefined && { event_types: JSON.stringify(body.event_types) }),
    ...(body.store_response_body !== undefined && { store_response_body: body.store_response_body ? 1 : 0 }),
    // Enabling starts afresh: the failure streak that may have disabled it is forgotten.
    ...(enabling && { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null }),
    ...(disabling && { enabled: 0, disabled_reason: 'manual', disabled_at: now }),
    updated_at: now,
  });
  if (disabling) await failPendingDeliveriesOfEndpoint(db, id, 'endpoint_disabled', now);
  const endpoint = toWebhookEndpoint(await requireWebhookEndpoint(db, ctx, id));
  await recordChange(db, ctx, {
    action: 'webhook_endpoint.update',
    resourceType: 'webhook_endpoint',
    resourceId: id,
    details: { fields: Object.keys(body) },
    event: { type: 'webhook.endpoint_updated', payload: { endpoint, changed: Object.keys(body) } },
  });
  return endpoint;
}

/** Soft delete: the row stays for the audit trail of its deliveries, its secrets are wiped, pending deliveries end. */
export async function deleteWebhookEndpoint(db: Executor, ctx: ServiceContext, id: number): Promise<void> {
  const row = await requireWebhookEndpoint(db, ctx, id);
  const now = isoNow(ctx);
  await updateWebhookEndpoint(db, ctx.actor.organizationId, id, {
    enabled: 0,
    secret: '',
    previous_secret: null,
    previous_secret_expires_at: null,
    deleted_at: now,
    updated_at: now,
  });
  await failPendingDeliveriesOfEndpoint(db, id, 'endpoint_deleted', now);
  await recordChange(db, ctx, {
    action: 'webhook_endpoint.delete',
    resourceType: 'webhook_endpoint',
    resourceId: id,
    event: { type: 'webhook.endpoint_deleted', payload: { endpoint: { ...toWebhookEndpoint(row), enabled: false } } },
  });
}

/**
 * A new secret signs every delivery from now on; the one it replaces also signs until the overlap ends.
 * Rotating again during an overlap drops the oldest secret at once.
 */
export async function rotateWebhookSecret(
  db: Executor,
  ctx: ServiceContext,
  id: number,
  settings: Pick<Config['webhooks'], 'secretOverlapHours'>,
): Promise<WebhookEndpointWithSecret> {
  const row = await requireWebhookEndpoint(db, ctx, id);
  const now = ctx.clock.now();
  const overlapMs = settings.secretOverlapHours * 3600_000;
  const secret = generateWebhookSecret();
  await updateWebhookEndpoint(db, ctx.actor.organizationId, id, {
    secret,
    previous_secret: overlapMs > 0 ? row.secret : null,
    previous_secret_expires_at: overlapMs > 0 ? new Date(now.getTime() + overlapMs).toISOString() : null,
    secret_rotated_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  const endpoint = toWebhookEndpoint(await requireWebhookEndpoint(db, ctx, id));
  await recordChange(db, ctx, {
    action: 'webhook_endpoint.rotate_secret',
    resourceType: 'webhook_endpoint',
    resourceId: id,
    details: { previous_secret_expires_at: endpoint.previous_secret_expires_at },
    event: { type: 'webhook.endpoint_secret_rotated', payload: { endpoint } },
  });
  return { ...endpoint, secret };
}

/** The secrets a delivery made at `now` is signed with: the current one, then the previous one during its overlap. */
export function signingSecrets(row: WebhookEndpointRow, now: Date): string[] {
  const secrets = [row.secret];
  if (row.previous_secret && row.previous_secret_expires_at && Date.parse(row.previous_secret_expires_at) > now.getTime()) {
    secrets.push(row.previous_secret);
  }
  return secrets;
}
