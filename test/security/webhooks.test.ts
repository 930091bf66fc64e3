import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEndpoint, WebhookEndpointWithSecret } from '../../main/common/schemas/webhooks.js';
import { isLocalAddress } from '../../main/services/webhook-destinations.js';
import { createCase } from '../helpers/instance.js';
import { dataOf, errorOf } from '../helpers/integration-support.js';
import { createApiKeyForTest } from '../helpers/security-support.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { deliveriesOf, deliveryDetail, startWebhookHarness, type WebhookHarness } from '../helpers/webhooks-support.js';

// Finding (MEDIUM): response_excerpt returned 1 KB of any answer, so a webhook pointed at a local or LAN
// service read that service for whoever could manage webhooks.

describe('security: webhook answers are not a read tool', () => {
  let harness: WebhookHarness;
  let receiver: Receiver;
  beforeAll(async () => {
    harness = await startWebhookHarness({ organizations: 1 });
    receiver = await startReceiver();
    receiver.fallback = { status: 200, body: 'SECRET-FROM-A-LOCAL-SERVICE' };
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
  });

  async function excerptsOf(endpointId: string): Promise<(string | null)[]> {
    const [delivery] = await deliveriesOf(harness.instance, endpointId);
    const detail = await deliveryDetail(harness.instance, delivery?.id ?? '');
    return detail.attempts.map((attempt) => attempt.response_excerpt);
  }

  it('by default no answer body is stored or returned', async () => {
    const { instance } = harness;
    const endpoint = dataOf(await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body: { url: receiver.url, event_types: ['case.created'] } }), WebhookEndpointWithSecret, 201);
    expect(endpoint.store_response_body).toBe(false);
    await createCase(instance, 'read me');
    await harness.drain();
    await receiver.waitFor(1);
    expect(await excerptsOf(endpoint.id)).toEqual([null]);
    await instance.request({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${endpoint.id}` });
  });

  it('only an administrator (credentials:write) may opt an endpoint in', async () => {
    const { instance } = harness;
    const manager = (await createApiKeyForTest(instance, ['webhooks:write', 'webhooks:read'])).plaintext;
    const denied = errorOf(
      await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', key: manager, body: { url: receiver.url, event_types: ['case.created'], store_response_body: true } }),
      403,
      'permission_denied',
    );
    expect(denied.details).toEqual({ required_scopes: ['webhooks:write', 'credentials:write'] });
    const plain = dataOf(await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', key: manager, body: { url: receiver.url, event_types: ['case.created'] } }), WebhookEndpointWithSecret, 201);
    errorOf(await instance.request({ method: 'PATCH', url: `/api/v1/webhook-endpoints/${plain.id}`, key: manager, body: { store_response_body: true } }), 403, 'permission_denied');
    const admin = dataOf(await instance.request({ method: 'PATCH', url: `/api/v1/webhook-endpoints/${plain.id}`, body: { store_response_body: true } }), WebhookEndpoint);
    expect(admin.store_response_body).toBe(true);
    await instance.request({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${plain.id}` });
  });

  it('even opted in, an answer from a loopback or private address is never stored', async () => {
    const { instance } = harness;
    const endpoint = dataOf(
      await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body: { url: receiver.url, event_types: ['case.created'], store_response_body: true } }),
      WebhookEndpointWithSecret,
      201,
    );
    const before = receiver.received.length;
    await createCase(instance, 'read me too');
    await harness.drain();
    await receiver.waitFor(before + 1);
    expect(await excerptsOf(endpoint.id)).toEqual([null]);
    const rows = await instance.runtime.db.selectFrom('webhook_delivery_attempts').select('response_excerpt').execute();
    expect(rows.every((row) => row.response_excerpt === null)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 4, true],
    ['10.1.2.3', 4, true],
    ['172.20.0.1', 4, true],
    ['192.168.1.10', 4, true],
    ['100.64.0.1', 4, true],
    ['::1', 6, true],
    ['fd12::1', 6, true],
    ['::ffff:192.168.0.1', 6, true],
    ['169.254.169.254', 4, true],
    ['93.184.216.34', 4, false],
    ['2606:4700::1111', 6, false],
  ] as const)('%s counts as local: %s', (address, family, local) => {
    expect(isLocalAddress({ address, family })).toBe(local);
  });
});
