// Webhook endpoints and their deliveries (/api/v1, "Webhooks" in docs/api.md).
import { listAll, request, type Page, type Single } from './http.js';
import type {
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../../../main/common/schemas/webhooks.js';

export interface WebhookEventType {
  type: string;
  group: string;
  description: string;
}
export type { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointWithSecret };

const id = (value: string) => encodeURIComponent(value);

export const listEndpoints = (signal?: AbortSignal) => listAll<WebhookEndpoint>('/api/v1/webhook-endpoints', {}, signal);
export async function listEventTypes(signal?: AbortSignal): Promise<WebhookEventType[]> {
  return (await request<{ data: WebhookEventType[] }>('/api/v1/webhook-event-types', signal ? { signal } : {})).data;
}

export async function createEndpoint(body: { url: string; description?: string; event_types: string[] }, key: string): Promise<WebhookEndpointWithSecret> {
  return (await request<Single<WebhookEndpointWithSecret>>('/api/v1/webhook-endpoints', { method: 'POST', body, idempotencyKey: key })).data;
}

export async function setEndpointEnabled(endpointId: string, enabled: boolean, key: string): Promise<WebhookEndpoint> {
  return (await request<Single<WebhookEndpoint>>(`/api/v1/webhook-endpoints/${id(endpointId)}`, { method: 'PATCH', body: { enabled }, idempotencyKey: key })).data;
}

export async function rotateEndpointSecret(endpointId: string, key: string): Promise<WebhookEndpointWithSecret> {
  return (await request<Single<WebhookEndpointWithSecret>>(`/api/v1/webhook-endpoints/${id(endpointId)}/rotate-secret`, { method: 'POST', idempotencyKey: key })).data;
}

export async function deleteEndpoint(endpointId: string): Promise<void> {
  await request(`/api/v1/webhook-endpoints/${id(endpointId)}`, { method: 'DELETE' });
}

/** The newest deliveries of an endpoint (one page). */
export async function listDeliveries(endpointId: string, signal?: AbortSignal): Promise<WebhookDelivery[]> {
  return (await request<Page<WebhookDelivery>>(`/api/v1/webhook-endpoints/${id(endpointId)}/deliveries`, { query: { limit: 50 }, ...(signal && { signal }) })).data;
}

export async function getDelivery(deliveryId: string, signal?: AbortSignal): Promise<WebhookDeliveryDetail> {
  return (await request<Single<WebhookDeliveryDetail>>(`/api/v1/webhook-deliveries/${id(deliveryId)}`, signal ? { signal } : {})).data;
}

export async function replayDelivery(deliveryId: string, key: string): Promise<WebhookDelivery> {
  return (await request<Single<WebhookDelivery>>(`/api/v1/webhook-deliveries/${id(deliveryId)}/replay`, { method: 'POST', idempotencyKey: key })).data;
}
