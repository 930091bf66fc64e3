import type { Config } from '../config.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import type { WebhookDeliveryAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../db/schema.js';
import { listOutboxEventsAfter } from '../db/queries/outbox-events.js';
import {
  failPendingDeliveriesOfEndpoint,
  findWebhookDelivery,
  findWebhookDeliveryById,
  insertWebhookDelivery,
  listDueWebhookDeliveries,
  pageEndpointDeliveries,
  requeueDeliveringDeliveries,
  updateWebhookDeliveryIfStatus,
  type DeliveryWithEvent,
} from '../db/queries/webhook-deliveries.js';
import {
  insertWebhookDeliveryAttempt,
  interruptInFlightAttempts,
  listWebhookDeliveryAttempts,
  updateWebhookDeliveryAttempt,
} from '../db/queries/webhook-delivery-attempts.js';
import { findWebhookEndpoint, listEnabledWebhookEndpoints, updateWebhookEndpoint } from '../db/queries/webhook-endpoints.js';
import { getWebhookOutboxCursor, setWebhookOutboxCursor } from '../db/queries/webhook-outbox-cursor.js';
import { DomainError, notFound } from '../common/errors.js';
import {
  eventMatches,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookDeliveryDetail,
  type WebhookPayload,
} from '../common/schemas/webhooks.js';
import { recordChange } from './change-log.js';
import { isoNow, type Clock, type ServiceContext } from './context.js';
import { parseEventTypes, requireWebhookEndpoint, signingSecrets, toWebhookEndpoint } from './webhook-endpoints.js';

export type DeliverySettings = Pick<Config['webhooks'], 'retryScheduleSeconds' | 'disableAfterHours'>;

/** The longest response body kept per attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export function toWebhookDelivery(row: DeliveryWithEvent): WebhookDelivery {
  return {
    id: String(row.id),
    endpoint_id: String(row.endpoint_id),
    webhook_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at,
    last_attempt_at: row.last_attempt_at,
    last_status_code: row.last_status_code,
    failure_reason: row.failure_reason,
    replay_of: row.replay_of === null ? null : String(row.replay_of),
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

function toAttempt(row: WebhookDeliveryAttemptRow): WebhookDeliveryAttempt {
  return {
    number: row.number,
    url: row.url,
    outcome: row.outcome,
    started_at: row.started_at,
    finished_at: row.finished_at,
    duration_ms: row.duration_ms,
    status_code: row.status_code,
    response_excerpt: row.response_excerpt,
    error: row.error,
  };
}

/** The Standard Webhooks payload: `{type, timestamp, data}`; the same bytes for every attempt and replay. */
export function payloadOf(event: Pick<DeliveryWithEvent, 'event_type' | 'event_payload' | 'event_created_at'>): WebhookPayload {
  return { type: event.event_type, timestamp: event.event_created_at, data: JSON.parse(event.event_payload) as Record<string, unknown> };
}

export async function listEndpointDeliveryPage(
  db: Executor,
  ctx: ServiceContext,
  endpointId: number,
  status: WebhookDeliveryRow['status'] | undefined,
  page: PageRequest,
) {
  await requireWebhookEndpoint(db, ctx, endpointId);
  const result = await pageEndpointDeliveries(db, ctx.actor.organizationId, endpointId, status, page);
  return { items: result.rows.map(toWebhookDelivery), nextAfterId: result.nextAfterId };
}

async function requireDelivery(db: Executor, ctx: ServiceContext, id: number): Promise<DeliveryWithEvent> {
  const row = await findWebhookDelivery(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('webhook delivery');
  return row;
}

export async function getWebhookDelivery(db: Executor, ctx: ServiceContext, id: number): Promise<WebhookDeliveryDetail> {
  const row = await requireDelivery(db, ctx, id);
  const attempts = await listWebhookDeliveryAttempts(db, ctx.actor.organizationId, id);
  return { ...toWebhookDelivery(row), payload: payloadOf(row), attempts: attempts.map(toAttempt) };
}

/**
 * A new delivery of the same event to the same endpoint, due now. It keeps the event's webhook-id: Standard
 * Webhooks defines the id as the message's, so a receiver that already processed it may recognise it.
 */
export async function replayWebhookDelivery(db: Executor, ctx: ServiceContext, id: number): Promise<WebhookDelivery> {
  const original = await requireDelivery(db, ctx, id);
  const endpoint = await requireWebhookEndpoint(db, ctx, original.endpoint_id);
  if (endpoint.enabled !== 1) {
    throw new DomainError('conflict', 'the webhook endpoint is disabled; enable it (PATCH enabled: true) before replaying', {
      disabled_reason: endpoint.disabled_reason,
    });
  }
  const now = isoNow(ctx);
  const replayId = await insertWebhookDelivery(db, {
    organization_id: ctx.actor.organizationId,
    endpoint_id: original.endpoint_id,
    outbox_event_id: original.outbox_event_id,
    replay_of: original.id,
    status: 'pending',
    attempt_count: 0,
    failure_count: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
  if (replayId === undefined) throw new Error('replay delivery was not inserted');
  const replay = await requireDelivery(db, ctx, replayId);
  const delivery = toWebhookDelivery(replay);
  await recordChange(db, ctx, {
    action: 'webhook_delivery.replay',
    resourceType: 'webhook_delivery',
    resourceId: replayId,
    details: { replay_of: String(original.id) },
    event: { type: 'webhook.delivery_replayed', payload: { delivery, replay_of: String(original.id) } },
  });
  return delivery;
}

// ---- Dispatcher side: the main process's webhook loop calls these, each inside a transaction. ----

function systemContext(organizationId: number, clock: Clock): ServiceContext {
  return { actor: { type: 'system', id: 'webhooks', organizationId }, requestId: null, clock };
}

/**
 * Turns the next outbox events into pending deliveries for every enabled endpoint of the event's
 * organization that subscribes to its type, and moves the cursor past them, all in the caller's transaction:
 * each event is fanned out exactly once. Returns how many events were read.
 */
export async function fanOutOutbox(db: Executor, clock: Clock, batchSize: number): Promise<number> {
  const cursor = await getWebhookOutboxCursor(db);
  const events = await listOutboxEventsAfter(db, cursor, batchSize);
  const last = events.at(-1);
  if (!last) return 0;
  const now = clock.now().toISOString();
  const endpointsOf = new Map<number, { row: WebhookEndpointRow; patterns: string[] }[]>();
  for (const event of events) {
    let endpoints = endpointsOf.get(event.organization_id);
    if (!endpoints) {
      endpoints = (await listEnabledWebhookEndpoints(db, event.organization_id)).map((row) => ({ row, patterns: parseEventTypes(row) }));
      endpointsOf.set(event.organization_id, endpoints);
    }
    for (const { row, patterns } of endpoints) {
      if (event.id <= row.start_after_event_id || !eventMatches(patterns, event.type)) continue;
      await insertWebhookDelivery(db, {
        organization_id: event.organization_id,
        endpoint_id: row.id,
        outbox_event_id: event.id,
        replay_of: null,
        status: 'pending',
        attempt_count: 0,
        failure_count: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      });
    }
  }
  await setWebhookOutboxCursor(db, last.id);
  return events.length;
}

/** Everything needed to send one attempt, read when it was claimed. */
export interface ClaimedAttempt {
  organizationId: number;
  deliveryId: number;
  endpointId: number;
  attemptId: number;
  attemptNumber: number;
  url: string;
  /** The endpoint's opt-in to keeping response bodies (still only from public addresses). */
  storeResponseBody: boolean;
  secrets: string[];
  webhookId: string;
  body: string;
  startedAt: Date;
}

/**
 * Marks a due delivery `delivering` and writes its attempt `in_flight` before anything is sent, so an
 * attempt cut short by a crash is known at the next start. Returns null when the delivery is no longer due.
 */
export async function claimDelivery(db: Executor, clock: Clock, delivery: WebhookDeliveryRow): Promise<ClaimedAttempt | null> {
  const endpoint = await findWebhookEndpoint(db, delivery.organization_id, delivery.endpoint_id);
  if (!endpoint || endpoint.enabled !== 1) return null;
  const event = await findWebhookDeliveryById(db, delivery.id);
  if (!event) return null;
  const startedAt = clock.now();
  const now = startedAt.toISOString();
  const attemptNumber = delivery.attempt_count + 1;
  const claimed = await updateWebhookDeliveryIfStatus(db, delivery.id, 'pending', {
    status: 'delivering',
    attempt_count: attemptNumber,
    last_attempt_at: now,
    next_attempt_at: null,
    updated_at: now,
  });
  if (!claimed) return null;
  const attemptId = await insertWebhookDeliveryAttempt(db, {
    organization_id: delivery.organization_id,
    delivery_id: delivery.id,
    number: attemptNumber,
    url: endpoint.url,
    outcome: 'in_flight',
    started_at: now,
  });
  return {
    organizationId: delivery.organization_id,
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    attemptId,
    attemptNumber,
    url: endpoint.url,
    storeResponseBody: endpoint.store_response_body === 1,
    secrets: signingSecrets(endpoint, startedAt),
    webhookId: event.event_id,
    body: JSON.stringify(payloadOf(event)),
    startedAt,
  };
}

/** What an attempt came to, as the sender saw it. */
export type AttemptResult =
  | { kind: 'response'; statusCode: number; excerpt: string | null; durationMs: number; error: string | null }
  | { kind: 'error'; error: string; durationMs: number }
  | { kind: 'interrupted'; durationMs: number };

const INTERRUPTED = 'the server stopped during this attempt; the delivery is attempted again';

/** Records an attempt's outcome and decides the delivery's next step (done, retry later, or give up). */
export async function settleAttempt(db: Executor, clock: Clock, claimed: ClaimedAttempt, result: AttemptResult, settings: DeliverySettings): Promise<void> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const statusCode = result.kind === 'response' ? result.statusCode : null;
  const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const outcome = result.kind === 'interrupted' ? 'interrupted' : succeeded ? 'succeeded' : 'failed';
  await updateWebhookDeliveryAttempt(db, claimed.attemptId, {
    outcome,
    finished_at: nowIso,
    duration_ms: Math.round(result.durationMs),
    status_code: statusCode,
    response_excerpt: result.kind === 'response' ? result.excerpt : null,
    error: result.kind === 'interrupted' ? INTERRUPTED : result.error,
  });
  if (result.kind === 'interrupted') {
    await updateWebhookDeliveryIfStatus(db, claimed.deliveryId, 'delivering', { status: 'pending', next_attempt_at: nowIso, updated_at: nowIso });
    return;
  }
  const endpoint = await findWebhookEndpoint(db, claimed.organizationId, claimed.endpointId);
  if (succeeded) {
    await updateWebhookDeliveryIfStatus(db, claimed.deliveryId, 'delivering', {
      status: 'succeeded',
      last_status_code: statusCode,
      completed_at: nowIso,
      updated_at: nowIso,
    });
    if (endpoint?.failing_since) await updateWebhookEndpoint(db, endpoint.organization_id, endpoint.id, { failing_since: null });
    return;
  }
  const delivery = await findWebhookDeliveryById(db, claimed.deliveryId);
  if (!delivery) return;
  const failures = delivery.failure_count + 1;
  const end = (reason: NonNullable<WebhookDeliveryRow['failure_reason']>) =>
    updateWebhookDeliveryIfStatus(db, claimed.deliveryId, 'delivering', {
      status: 'failed',
      failure_count: failures,
      failure_reason: reason,
      last_status_code: statusCode,
      next_attempt_at: null,
      completed_at: nowIso,
      updated_at: nowIso,
    });
  if (!endpoint || endpoint.enabled !== 1) {
    await end(endpoint ? 'endpoint_disabled' : 'endpoint_deleted');
    return;
  }
  if (statusCode === 410) {
    await end('endpoint_gone');
    await disableEndpoint(db, clock, endpoint, 'gone', { delivery_id: String(claimed.deliveryId), last_status_code: statusCode });
    return;
  }
  const failingSince = endpoint.failing_since ?? nowIso;
  if (now.getTime() - Date.parse(failingSince) >= settings.disableAfterHours * 3600_000) {
    await end('endpoint_disabled');
    await disableEndpoint(db, clock, endpoint, 'failing', { delivery_id: String(claimed.deliveryId), last_status_code: statusCode });
    return;
  }
  if (!endpoint.failing_since) await updateWebhookEndpoint(db, endpoint.organization_id, endpoint.id, { failing_since: failingSince });
  const schedule = settings.retryScheduleSeconds;
  if (delivery.attempt_count > schedule.length) {
    await end('attempts_exhausted');
    return;
  }
  const waitSeconds = schedule[Math.min(failures, schedule.length) - 1] ?? 0;
  await updateWebhookDeliveryIfStatus(db, claimed.deliveryId, 'delivering', {
    status: 'pending',
    failure_count: failures,
    last_status_code: statusCode,
    next_attempt_at: new Date(now.getTime() + waitSeconds * 1000).toISOString(),
    updated_at: nowIso,
  });
}

/** Turns an endpoint off, ends its pending deliveries and writes `webhook.endpoint_disabled`. */
async function disableEndpoint(
  db: Executor,
  clock: Clock,
  endpoint: WebhookEndpointRow,
  reason: 'gone' | 'failing',
  details: { delivery_id: string; last_status_code: number | null },
): Promise<void> {
  const now = clock.now().toISOString();
  const failingSince = endpoint.failing_since ?? now;
  await updateWebhookEndpoint(db, endpoint.organization_id, endpoint.id, {
    enabled: 0,
    disabled_reason: reason,
    disabled_at: now,
    failing_since: failingSince,
    updated_at: now,
  });
  await failPendingDeliveriesOfEndpoint(db, endpoint.id, 'endpoint_disabled', now);
  const disabled = await findWebhookEndpoint(db, endpoint.organization_id, endpoint.id);
  if (!disabled) return;
  await recordChange(db, systemContext(endpoint.organization_id, clock), {
    action: 'webhook_endpoint.disable',
    resourceType: 'webhook_endpoint',
    resourceId: endpoint.id,
    details: { reason, ...details },
    event: { type: 'webhook.endpoint_disabled', payload: { endpoint: toWebhookEndpoint(disabled), reason, failing_since: failingSince, ...details } },
  });
}

/** At start: attempts a dead process left in flight become `interrupted`, and their deliveries are due now. */
export async function recoverInterruptedDeliveries(db: Executor, clock: Clock): Promise<number> {
  const now = clock.now().toISOString();
  await interruptInFlightAttempts(db, now, INTERRUPTED);
  return requeueDeliveringDeliveries(db, now);
}

/** Pending deliveries due now whose endpoint can receive them, the longest waiting first. */
export function listDueDeliveries(db: Executor, clock: Clock, limit: number): Promise<WebhookDeliveryRow[]> {
  return listDueWebhookDeliveries(db, clock.now().toISOString(), limit);
}
