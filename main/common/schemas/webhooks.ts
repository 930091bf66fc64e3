import { z } from 'zod';
import { PageQuery, Timestamp } from './shared.js';

/**
 * Event types an endpoint may subscribe to, with what each means. The outbox may carry more types than
 * listed here; `*` and `group.*` subscriptions receive those too, exact subscriptions must name a listed type.
 */
export const WEBHOOK_EVENT_CATALOGUE = {
  'case.created': 'A case was created.',
  'case.updated': 'Fields of a case other than its status changed.',
  'case.status_changed': 'A workflow action or a PATCH of status moved a case.',
  'case.deleted': 'A case was soft-deleted.',
  'document.created': 'A document was created by a completed upload session.',
  'document.updated': 'A document’s name or description changed.',
  'document.deleted': 'A document was deleted.',
  'redactions.changed': 'A new version of a redaction layer was saved.',
  'comment.created': 'A comment was added to a document.',
  'job.completed': 'A processing job finished; the job carries its result.',
  'job.failed': 'A processing job failed; the job carries its error_message.',
  'export.created': 'An export was requested.',
  'export.completed': 'An export finished; its file can be downloaded.',
  'export.failed': 'An export failed.',
  'export.cancelled': 'An export was cancelled.',
  'export.retried': 'A failed export was queued again.',
  'user.created': 'A user was created.',
  'user.updated': 'A user’s fields changed.',
  'user.deactivated': 'A user was deactivated; their sessions ended.',
  'user.invited': 'An invitation was issued to a user.',
  'role.created': 'A role was created.',
  'role.updated': 'A role’s name or scopes changed.',
  'role.deleted': 'A role was deleted.',
  'role.assigned': 'A role was assigned to a user.',
  'role.unassigned': 'A role was removed from a user.',
  'service_account.created': 'A service account was created.',
  'service_account.updated': 'A service account’s fields (name, max_scopes, active) changed.',
  'service_account.deleted': 'A service account was deleted.',
  'api_key.created': 'An API key was issued.',
  'api_key.updated': 'An API key’s name or expiry changed.',
  'api_key.rotated': 'An API key was rotated; the old secret works until its grace period ends.',
  'api_key.revoked': 'An API key was revoked.',
  'exemption.created': 'An organization added an exemption of its own.',
  'exemption.updated': 'An organization’s own exemption changed.',
  'exemption.deleted': 'An organization’s own exemption was removed.',
  'template.created': 'A redaction template was created.',
  'template.updated': 'A redaction template changed.',
  'template.deleted': 'A redaction template was deleted.',
  'watched_folder.created': 'A watched folder was added.',
  'watched_folder.updated': 'A watched folder was changed.',
  'watched_folder.deleted': 'A watched folder was removed.',
  'watched_file.completed': 'A file found in a watched folder became a document.',
  'watched_file.failed': 'A file found in a watched folder could not be imported.',
  'webhook.endpoint_created': 'A webhook endpoint was created.',
  'webhook.endpoint_updated': 'A webhook endpoint was changed (including enabling or disabling it by hand).',
  'webhook.endpoint_deleted': 'A webhook endpoint was deleted.',
  'webhook.endpoint_secret_rotated': 'A webhook endpoint’s signing secret was rotated.',
  'webhook.endpoint_disabled': 'Delivery disabled an endpoint: it answered 410 Gone or kept failing for webhooks.disableAfterHours.',
  'webhook.delivery_replayed': 'A delivery was replayed.',
} as const satisfies Record<string, string>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_CATALOGUE;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_CATALOGUE) as WebhookEventType[];
export const WEBHOOK_EVENT_GROUPS = [...new Set(WEBHOOK_EVENT_TYPES.map((type) => type.slice(0, type.indexOf('.'))))];

/** A subscription entry: an exact catalogued type, `group.*` for a catalogued group, or `*` for everything. */
export function isValidEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return WEBHOOK_EVENT_GROUPS.includes(pattern.slice(0, -2));
  return pattern in WEBHOOK_EVENT_CATALOGUE;
}

export function eventMatches(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))));
}

const EventPatterns = z
  .array(
    z
      .string()
      .refine(isValidEventPattern, { message: 'not a catalogued event type, group wildcard (e.g. case.*) or *; see GET /webhook-event-types' }),
  )
  .min(1)
  .max(100)
  .refine((patterns) => new Set(patterns).size === patterns.length, { message: 'event types must not repeat' })
  .describe('Exact event types, `group.*` wildcards or `*`');

/** http(s) only, no credentials in the URL (they would be shown back on every read), no fragment. */
export const WebhookUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && url.hash === '' && url.hostname !== '';
    },
    { message: 'must be an absolute http:// or https:// URL without credentials or fragment' },
  );

const StoreResponseBody = z
  .boolean()
  .describe('Keep the first 1,024 bytes of each answer in the attempt (response_excerpt); needs credentials:write, and applies to public addresses only. Default false');

export const CreateWebhookEndpointBody = z.strictObject({
  url: WebhookUrl,
  description: z.string().max(1000).optional(),
  enabled: z.boolean().optional(),
  event_types: EventPatterns,
  store_response_body: StoreResponseBody.optional(),
});
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = z
  .strictObject({
    url: WebhookUrl.optional(),
    description: z.string().max(1000).optional(),
    enabled: z.boolean().optional(),
    event_types: EventPatterns.optional(),
    store_response_body: StoreResponseBody.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateWebhookEndpointBody = z.infer<typeof UpdateWebhookEndpointBody>;

export const DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    event_types: z.array(z.string()),
    disabled_reason: z.enum(DISABLED_REASONS).nullable().describe('Why enabled is false: manual (PATCH), gone (answered 410), failing (failed for webhooks.disableAfterHours)'),
    disabled_at: Timestamp.nullable(),
    failing_since: Timestamp.nullable().describe('First failed attempt since the last success; null while healthy'),
    secret_rotated_at: Timestamp.nullable(),
    store_response_body: z.boolean().describe('Answers are kept as response_excerpt (public addresses only)'),
    previous_secret_expires_at: Timestamp.nullable().describe('Until then deliveries are also signed with the secret before the last rotation'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_<base64 of 32 random bytes>; returned only by create and rotate-secret'),
}).meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export const DELIVERY_FAILURE_REASONS = ['attempts_exhausted', 'endpoint_gone', 'endpoint_disabled', 'endpoint_deleted'] as const;
export const ATTEMPT_OUTCOMES = ['in_flight', 'succeeded', 'failed', 'interrupted'] as const;

export const WebhookDelivery = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    webhook_id: z.string().describe('The webhook-id header: the event id, the same for every attempt and every replay'),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    last_attempt_at: Timestamp.nullable(),
    last_status_code: z.number().int().nullable(),
    failure_reason: z.enum(DELIVERY_FAILURE_REASONS).nullable(),
    replay_of: z.string().nullable().describe('The delivery this one replays'),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryAttempt = z
  .object({
    number: z.number().int(),
    url: z.string(),
    outcome: z.enum(ATTEMPT_OUTCOMES),
    started_at: Timestamp,
    finished_at: Timestamp.nullable(),
    duration_ms: z.number().int().nullable(),
    status_code: z.number().int().nullable(),
    response_excerpt: z
      .string()
      .nullable()
      .describe('The first 1,024 bytes of the response body, as UTF-8; null unless the endpoint has store_response_body and the answer came from a public address'),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookPayload = z
  .object({ type: z.string(), timestamp: Timestamp, data: z.record(z.string(), z.unknown()) })
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof WebhookPayload>;

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  payload: WebhookPayload.describe('The body sent, byte for byte as JSON'),
  attempts: z.array(WebhookDeliveryAttempt),
}).meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const DeliveryListQuery = PageQuery.extend({ status: z.enum(DELIVERY_STATUSES).optional() });

export const WebhookEventTypeInfo = z.object({ type: z.string(), group: z.string(), description: z.string() }).meta({ id: 'WebhookEventType' });
