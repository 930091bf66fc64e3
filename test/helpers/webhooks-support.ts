import { z } from 'zod';
import type { ConfigInput } from '../../main/config.js';
import { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointWithSecret } from '../../main/common/schemas/webhooks.js';
import { WebhookDispatcher } from '../../main/jobs/webhooks.js';
import type { Clock } from '../../main/services/context.js';
import type { HostResolver } from '../../main/services/webhook-destinations.js';
import { startInstance, type TestInstance } from './instance.js';
import { dataOf, pageOf } from './integration-support.js';

export interface WebhookHarness {
  instance: TestInstance;
  dispatcher: WebhookDispatcher;
  /** One dispatcher pass (fan out, send what is due) and every attempt it started, settled. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** A real instance whose webhook dispatcher the test drives by hand (no timer), on the given clock. */
export async function startWebhookHarness(options: { config?: ConfigInput; clock?: Clock; resolve?: HostResolver; organizations?: number } = {}): Promise<WebhookHarness> {
  const instance = await startInstance({
    organizations: options.organizations ?? 2,
    config: { rateLimits: { enabled: false }, ...options.config },
    ...(options.clock && { clock: options.clock }),
  });
  const dispatcher = new WebhookDispatcher(instance.runtime, options.resolve ? { resolve: options.resolve } : {});
  await dispatcher.recover();
  return {
    instance,
    dispatcher,
    async drain() {
      await dispatcher.poll();
      await dispatcher.idle();
    },
    async close() {
      await dispatcher.stop();
      await instance.close();
    },
  };
}

export async function createEndpoint(
  instance: TestInstance,
  body: { url: string; event_types: string[]; description?: string; enabled?: boolean },
  key?: string,
): Promise<z.output<typeof WebhookEndpointWithSecret>> {
  return dataOf(await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body, ...(key && { key }) }), WebhookEndpointWithSecret, 201);
}

export async function getEndpoint(instance: TestInstance, id: string): Promise<z.output<typeof WebhookEndpoint>> {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${id}` }), WebhookEndpoint);
}

export async function deliveriesOf(instance: TestInstance, endpointId: string, query = ''): Promise<z.output<typeof WebhookDelivery>[]> {
  return pageOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpointId}/deliveries?limit=100${query}` }), WebhookDelivery).data;
}

export async function deliveryDetail(instance: TestInstance, deliveryId: string): Promise<z.output<typeof WebhookDeliveryDetail>> {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-deliveries/${deliveryId}` }), WebhookDeliveryDetail);
}

/** The only delivery of an endpoint (fails the test otherwise). */
export async function onlyDelivery(instance: TestInstance, endpointId: string): Promise<z.output<typeof WebhookDeliveryDetail>> {
  const list = await deliveriesOf(instance, endpointId);
  if (list.length !== 1 || !list[0]) throw new Error(`expected one delivery, found ${list.length}`);
  return deliveryDetail(instance, list[0].id);
}
