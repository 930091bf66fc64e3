import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WebhookVerificationError } from 'standardwebhooks';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '../../main/common/schemas/webhooks.js';
import { createCase } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, keyOf, orgId, pageOf } from '../helpers/integration-support.js';
import { signaturesOf, startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { createEndpoint, deliveriesOf, deliveryDetail, getEndpoint, onlyDelivery, startWebhookHarness, type WebhookHarness } from '../helpers/webhooks-support.js';

// Endpoints through the API, and deliveries to real receivers that verify every request with the
// standardwebhooks package. The dispatcher is driven pass by pass so each assertion sees a settled state.

let harness: WebhookHarness;
let receiver: Receiver;

beforeAll(async () => {
  harness = await startWebhookHarness({
    resolve: async (hostname) => {
      if (hostname === 'metadata.obscura.test') return [{ address: '169.254.169.254', family: 4 }];
      if (hostname === 'receiver.obscura.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
  });
});
afterAll(() => harness.close());

afterEach(async () => {
  // Earlier tests' endpoints must not receive later tests' events.
  const { instance } = harness;
  for (const org of [0, 1]) {
    const list = pageOf(await instance.request({ method: 'GET', url: '/api/v1/webhook-endpoints?limit=100', key: keyOf(instance, org) }), WebhookEndpoint);
    for (const endpoint of list.data) await instance.request({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${endpoint.id}`, key: keyOf(instance, org) });
  }
  await receiver?.close();
});

async function freshReceiver(): Promise<Receiver> {
  receiver = await startReceiver();
  return receiver;
}

describe('webhook endpoints', () => {
  it('create shows the secret once; read, list and update never do', async () => {
    const { instance } = harness;
    const created = await createEndpoint(instance, { url: 'http://127.0.0.1:9/hook', event_types: ['case.*', 'export.completed'], description: 'CRM sync' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', description: 'CRM sync', enabled: true, event_types: ['case.*', 'export.completed'], disabled_reason: null });

    const read = await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${created.id}` });
    expect(read.body).not.toContain(created.secret);
    expect(dataOf(read, WebhookEndpoint.strict())).toMatchObject({ id: created.id, url: created.url });

    const list = await instance.request({ method: 'GET', url: '/api/v1/webhook-endpoints' });
    expect(list.body).not.toContain(created.secret);
    expect(pageOf(list, WebhookEndpoint).data.map((endpoint) => endpoint.id)).toContain(created.id);

    const patched = await instance.request({
      method: 'PATCH',
      url: `/api/v1/webhook-endpoints/${created.id}`,
      body: { description: 'changed', event_types: ['*'], url: 'https://receiver.example/hooks' },
    });
    expect(patched.body).not.toContain(created.secret);
    expect(dataOf(patched, WebhookEndpoint)).toMatchObject({ description: 'changed', event_types: ['*'], url: 'https://receiver.example/hooks' });
    expect((await auditOf(harness.instance, 'webhook_endpoint', created.id)).map((row) => row.action)).toEqual(['webhook_endpoint.create', 'webhook_endpoint.update']);

    expect((await instance.request({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${created.id}` })).statusCode).toBe(204);
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${created.id}` }), 404, 'resource_not_found');
    const row = await instance.runtime.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', Number(created.id)).executeTakeFirstOrThrow();
    expect(row.secret).toBe('');
  });

  it('paginates the list', async () => {
    const { instance } = harness;
    const ids = [];
    for (let index = 0; index < 3; index += 1) ids.push((await createEndpoint(instance, { url: `http://127.0.0.1:9/${index}`, event_types: ['*'] })).id);
    const first = pageOf(await instance.request({ method: 'GET', url: '/api/v1/webhook-endpoints?limit=2' }), WebhookEndpoint);
    expect(first.data.map((endpoint) => endpoint.id)).toEqual(ids.slice(0, 2));
    const second = pageOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints?limit=2&cursor=${first.cursor}` }), WebhookEndpoint);
    expect(second.data.map((endpoint) => endpoint.id)).toEqual(ids.slice(2));
    expect(second.cursor).toBeNull();
  });

  it.each([
    ['ftp URL', { url: 'ftp://127.0.0.1/x', event_types: ['*'] }, 'url'],
    ['relative URL', { url: '/hooks', event_types: ['*'] }, 'url'],
    ['credentials in the URL', { url: 'https://user:pw@example.org/', event_types: ['*'] }, 'url'],
    ['link-local IPv4 (metadata)', { url: 'http://169.254.169.254/latest/meta-data', event_types: ['*'] }, 'url'],
    ['link-local IPv6', { url: 'http://[fe80::1]/hook', event_types: ['*'] }, 'url'],
    ['IPv4-mapped link-local', { url: 'http://[::ffff:169.254.169.254]/', event_types: ['*'] }, 'url'],
    ['unknown event type', { url: 'http://127.0.0.1/', event_types: ['case.created', 'case.exploded'] }, 'event_types.1'],
    ['wildcard of an unknown group', { url: 'http://127.0.0.1/', event_types: ['nope.*'] }, 'event_types.0'],
    ['no event types', { url: 'http://127.0.0.1/', event_types: [] }, 'event_types'],
    ['unknown field', { url: 'http://127.0.0.1/', event_types: ['*'], secret: 'whsec_mine' }, 'body'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const error = errorOf(await harness.instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body }), 400, 'validation_error');
    if (field !== 'body') expect(detailFields(error)).toContain(field);
  });

  it('accepts loopback, private-network and named receivers, and every catalogued type', async () => {
    const catalogue = z.object({ data: z.array(z.object({ type: z.string(), group: z.string(), description: z.string() })) });
    const types = catalogue.parse((await harness.instance.request({ method: 'GET', url: '/api/v1/webhook-event-types' })).json()).data;
    for (const required of ['case.created', 'document.created', 'export.completed', 'export.failed', 'job.completed', 'user.created', 'role.created', 'webhook.endpoint_disabled', 'redactions.changed', 'comment.created']) {
      expect(types.map((entry) => entry.type)).toContain(required);
    }
    for (const url of ['http://localhost:8080/x', 'http://[::1]:8080/', 'https://10.1.2.3/hook', 'http://192.168.0.10/', 'https://crm.internal.example/hooks']) {
      await createEndpoint(harness.instance, { url, event_types: [...types.map((entry) => entry.type), 'user.*', '*'] });
    }
  });

  it('an endpoint of another organization is invisible (404) and cannot be changed', async () => {
    const { instance } = harness;
    const other = await createEndpoint(instance, { url: 'http://127.0.0.1:9/', event_types: ['*'] }, keyOf(instance, 1));
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${other.id}` }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'PATCH', url: `/api/v1/webhook-endpoints/${other.id}`, body: { enabled: false } }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-endpoints/${other.id}/rotate-secret` }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${other.id}/deliveries` }), 404, 'resource_not_found');
    expect((await getEndpointAs(1, other.id)).enabled).toBe(true);
  });
});

async function getEndpointAs(org: number, id: string) {
  return dataOf(await harness.instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${id}`, key: keyOf(harness.instance, org) }), WebhookEndpoint);
}

describe('deliveries', () => {
  it('POSTs a case.created event signed per Standard Webhooks to the subscribed endpoints of the organization only', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    const early = await createCase(instance, 'before the endpoint existed');
    const cases = await createEndpoint(instance, { url: `${target.url}/cases`, event_types: ['case.*'] });
    const documents = await createEndpoint(instance, { url: `${target.url}/documents`, event_types: ['document.*'] });
    const otherOrg = await createEndpoint(instance, { url: `${target.url}/other-org`, event_types: ['case.*'] }, keyOf(instance, 1));
    const caseId = await createCase(instance, 'Webhook case');
    await harness.drain();

    expect(target.received.map((hit) => hit.path)).toEqual(['/cases']);
    const [hit] = target.received;
    if (!hit) throw new Error('no delivery');
    const payload = verifyDelivery(cases.secret, hit);
    expect(payload.type).toBe('case.created');
    expect(payload.data).toMatchObject({ case: { id: caseId, name: 'Webhook case', status: 'open' } });
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
    expect(hit.headers['content-type']).toBe('application/json');
    expect(signaturesOf(hit)).toHaveLength(1);
    expect(() => verifyDelivery(documents.secret, hit)).toThrow(WebhookVerificationError);
    expect(Math.abs(Number(hit.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    const outbox = await instance.runtime.db.selectFrom('outbox_events').selectAll().where('type', '=', 'case.created').where('resource_id', '=', caseId).executeTakeFirstOrThrow();
    expect(hit.headers['webhook-id']).toBe(outbox.event_id);
    expect(JSON.parse(hit.body)).toEqual({ type: 'case.created', timestamp: outbox.created_at, data: JSON.parse(outbox.payload) });

    const delivery = await onlyDelivery(instance, cases.id);
    expect(delivery).toMatchObject({ webhook_id: outbox.event_id, event_type: 'case.created', status: 'succeeded', attempt_count: 1, last_status_code: 200, replay_of: null });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ number: 1, outcome: 'succeeded', status_code: 200, response_excerpt: null, error: null, url: `${target.url}/cases` }),
    ]);
    expect(delivery.payload).toEqual(JSON.parse(hit.body));
    expect(await deliveriesOf(instance, documents.id)).toEqual([]);
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${otherOrg.id}/deliveries` }), 404, 'resource_not_found');
    const otherOrgDeliveries = await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${otherOrg.id}/deliveries`, key: keyOf(instance, 1) });
    expect(pageOf(otherOrgDeliveries, WebhookDelivery).data).toEqual([]);
    // The event of the case created before the endpoint was never fanned out to it.
    expect(target.received.some((entry) => entry.body.includes(`"id":"${early}"`))).toBe(false);

    // Fanned out once: more passes send nothing more.
    await harness.drain();
    expect(target.received).toHaveLength(1);
  });

  it('lists deliveries newest first with pagination and filters by status; keeps no answer from a loopback receiver', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    target.fallback = { status: 200, body: 'x'.repeat(5000) };
    const endpoint = await createEndpoint(instance, { url: target.url, event_types: ['case.created'] });
    for (let index = 0; index < 3; index += 1) await createCase(instance, `Case ${index}`);
    await harness.drain();
    await target.waitFor(3);

    const all = await deliveriesOf(instance, endpoint.id);
    expect(all).toHaveLength(3);
    expect(all.map((delivery) => Number(delivery.id))).toEqual([...all.map((delivery) => Number(delivery.id))].sort((a, b) => b - a));
    const first = pageOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2` }), WebhookDelivery);
    expect(first.data.map((delivery) => delivery.id)).toEqual(all.slice(0, 2).map((delivery) => delivery.id));
    const second = pageOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2&cursor=${first.cursor}` }), WebhookDelivery);
    expect(second.data.map((delivery) => delivery.id)).toEqual(all.slice(2).map((delivery) => delivery.id));
    expect(second.cursor).toBeNull();
    expect(await deliveriesOf(instance, endpoint.id, '&status=succeeded')).toHaveLength(3);
    expect(await deliveriesOf(instance, endpoint.id, '&status=failed')).toEqual([]);

    const detail = await deliveryDetail(instance, all[0]?.id ?? '');
    // Loopback: never stored, even had the endpoint opted in (test/security/webhooks.test.ts).
    expect(detail.attempts[0]?.response_excerpt).toBeNull();
    expect(detail.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('sends one endpoint its deliveries one at a time, oldest first, each event exactly once', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    target.fallback = { status: 200, delayMs: 25 };
    const endpoint = await createEndpoint(instance, { url: target.url, event_types: ['case.created'] });
    const names = Array.from({ length: 12 }, (_, index) => `Burst ${index}`);
    await Promise.all(names.map((name) => createCase(instance, name)));
    await harness.drain();
    await harness.drain();

    const payloads = target.received.map((hit) => verifyDelivery(endpoint.secret, hit));
    const created = await instance.runtime.db.selectFrom('outbox_events').select('event_id').where('type', '=', 'case.created').orderBy('id', 'desc').limit(12).execute();
    expect(target.received.map((hit) => hit.headers['webhook-id'])).toEqual(created.map((row) => row.event_id).reverse());
    expect(new Set(payloads.map((payload) => JSON.stringify(payload.data))).size).toBe(12);
    // Each request arrived only after the previous one was answered (25 ms later).
    const gaps = target.received.slice(1).map((hit, index) => hit.at - (target.received[index]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(20);
  });

  it('replays a delivery as a new delivery with the same webhook-id, verified again', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    const endpoint = await createEndpoint(instance, { url: target.url, event_types: ['case.created'] });
    await createCase(instance, 'Replay me');
    await harness.drain();
    const original = await onlyDelivery(instance, endpoint.id);

    const replayed = dataOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-deliveries/${original.id}/replay` }), WebhookDelivery, 202);
    expect(replayed).toMatchObject({ replay_of: original.id, webhook_id: original.webhook_id, status: 'pending', attempt_count: 0 });
    expect(replayed.id).not.toBe(original.id);
    await harness.drain();

    expect(target.received).toHaveLength(2);
    const [first, second] = target.received.map((hit) => ({ hit, payload: verifyDelivery(endpoint.secret, hit) }));
    expect(second?.hit.headers['webhook-id']).toBe(first?.hit.headers['webhook-id']);
    expect(second?.payload).toEqual(first?.payload);
    expect((await deliveryDetail(instance, replayed.id)).status).toBe('succeeded');
    expect((await deliveriesOf(instance, endpoint.id)).map((delivery) => delivery.id)).toEqual([replayed.id, original.id]);
    expect((await auditOf(instance, 'webhook_delivery', replayed.id)).map((row) => row.action)).toEqual(['webhook_delivery.replay']);

    // A disabled endpoint cannot be replayed to; an unknown delivery is 404.
    await instance.request({ method: 'PATCH', url: `/api/v1/webhook-endpoints/${endpoint.id}`, body: { enabled: false } });
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-deliveries/${original.id}/replay` }), 409, 'conflict');
    errorOf(await instance.request({ method: 'POST', url: '/api/v1/webhook-deliveries/987654/replay' }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/webhook-deliveries/${original.id}`, key: keyOf(instance, 1) }), 404, 'resource_not_found');
  });

  it('a disabled endpoint gets nothing; enabling it again delivers new events only', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    const endpoint = await createEndpoint(instance, { url: target.url, event_types: ['case.created'], enabled: false });
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    await createCase(instance, 'while disabled');
    await harness.drain();
    expect(target.received).toHaveLength(0);
    const enabled = dataOf(await instance.request({ method: 'PATCH', url: `/api/v1/webhook-endpoints/${endpoint.id}`, body: { enabled: true } }), WebhookEndpoint);
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    const caseId = await createCase(instance, 'after enabling');
    await harness.drain();
    expect(target.received.map((hit) => verifyDelivery(endpoint.secret, hit).data)).toEqual([expect.objectContaining({ case: expect.objectContaining({ id: caseId }) })]);
  });

  it('an endpoint subscribed to webhook.* is told about changes to endpoints, never their secrets', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    const watcher = await createEndpoint(instance, { url: target.url, event_types: ['webhook.*'] });
    const other = await createEndpoint(instance, { url: 'http://127.0.0.1:9/', event_types: ['case.created'] });
    const rotated = dataOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-endpoints/${other.id}/rotate-secret` }), WebhookEndpointWithSecret);
    await harness.drain();
    const payloads = target.received.map((hit) => verifyDelivery(watcher.secret, hit));
    expect(payloads.map((payload) => payload.type)).toEqual(['webhook.endpoint_created', 'webhook.endpoint_created', 'webhook.endpoint_secret_rotated']);
    for (const hit of target.received) {
      expect(hit.body).not.toContain(other.secret);
      expect(hit.body).not.toContain(rotated.secret);
      expect(hit.body).not.toContain(watcher.secret);
    }
  });
});

describe('destination checks at delivery', () => {
  it('refuses a name that resolves to a link-local (metadata) address, without connecting', async () => {
    const { instance } = harness;
    const endpoint = await createEndpoint(instance, { url: 'http://metadata.obscura.test/latest', event_types: ['case.created'] });
    await createCase(instance, 'to metadata');
    await harness.drain();
    const delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ outcome: 'failed', status_code: null, error: expect.stringMatching(/destination refused: metadata\.obscura\.test resolves to 169\.254\.169\.254/) }),
    ]);
  });

  it('does not follow redirects by default: the 3xx is a failed attempt and the target sees nothing', async () => {
    const { instance } = harness;
    const target = await freshReceiver();
    const elsewhere = await startReceiver();
    try {
      target.fallback = { status: 307, headers: { location: `${elsewhere.url}/moved` } };
      const endpoint = await createEndpoint(instance, { url: `${target.url}/old`, event_types: ['case.created'] });
      await createCase(instance, 'redirected');
      await harness.drain();
      const delivery = await onlyDelivery(instance, endpoint.id);
      expect(delivery.attempts[0]).toMatchObject({ outcome: 'failed', status_code: 307, error: expect.stringContaining('not followed') });
      expect(delivery.status).toBe('pending');
      expect(target.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('with webhooks.maxRedirects set, follows a redirect to an allowed host and checks every hop', async () => {
    const following = await startWebhookHarness({
      organizations: 1,
      config: { webhooks: { maxRedirects: 2 } },
      resolve: async (hostname) => {
        if (hostname === 'metadata.obscura.test') return [{ address: '169.254.169.254', family: 4 }];
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const first = await freshReceiver();
    const final = await startReceiver();
    try {
      const { instance } = following;
      const port = new URL(final.url).port;
      first.queue({ status: 308, headers: { location: `http://receiver.obscura.test:${port}/final` } }, { status: 302, headers: { location: 'http://metadata.obscura.test/latest' } });
      const endpoint = await createEndpoint(instance, { url: `${first.url}/start`, event_types: ['case.created'] });
      await createCase(instance, 'follow me');
      await createCase(instance, 'to the metadata service');
      await following.drain();

      expect(final.received.map((hit) => hit.path)).toEqual(['/final']);
      const [hit] = final.received;
      if (!hit) throw new Error('not delivered');
      expect(verifyDelivery(endpoint.secret, hit).data).toMatchObject({ case: { name: 'follow me' } });
      const [second, firstDelivery] = await deliveriesOf(instance, endpoint.id);
      expect(firstDelivery?.status).toBe('succeeded');
      const refused = await deliveryDetail(instance, second?.id ?? '');
      expect(refused.attempts[0]).toMatchObject({ outcome: 'failed', error: expect.stringContaining('destination refused: metadata.obscura.test resolves to 169.254.169.254') });
    } finally {
      await final.close();
      await following.close();
    }
  });
});

describe('scopes', () => {
  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const routes: { method: Method; path: (ids: { endpoint: string; delivery: string }) => string; scope: 'webhooks:read' | 'webhooks:write'; body?: unknown; openapi: string }[] = [
    { method: 'GET', path: () => '/webhook-event-types', scope: 'webhooks:read', openapi: '/webhook-event-types' },
    { method: 'GET', path: () => '/webhook-endpoints', scope: 'webhooks:read', openapi: '/webhook-endpoints' },
    { method: 'POST', path: () => '/webhook-endpoints', scope: 'webhooks:write', body: { url: 'http://127.0.0.1:9/', event_types: ['*'] }, openapi: '/webhook-endpoints' },
    { method: 'GET', path: (ids) => `/webhook-endpoints/${ids.endpoint}`, scope: 'webhooks:read', openapi: '/webhook-endpoints/{endpoint_id}' },
    { method: 'PATCH', path: (ids) => `/webhook-endpoints/${ids.endpoint}`, scope: 'webhooks:write', body: { description: 'x' }, openapi: '/webhook-endpoints/{endpoint_id}' },
    { method: 'DELETE', path: (ids) => `/webhook-endpoints/${ids.endpoint}`, scope: 'webhooks:write', openapi: '/webhook-endpoints/{endpoint_id}' },
    { method: 'POST', path: (ids) => `/webhook-endpoints/${ids.endpoint}/rotate-secret`, scope: 'webhooks:write', openapi: '/webhook-endpoints/{endpoint_id}/rotate-secret' },
    { method: 'GET', path: (ids) => `/webhook-endpoints/${ids.endpoint}/deliveries`, scope: 'webhooks:read', openapi: '/webhook-endpoints/{endpoint_id}/deliveries' },
    { method: 'GET', path: (ids) => `/webhook-deliveries/${ids.delivery}`, scope: 'webhooks:read', openapi: '/webhook-deliveries/{delivery_id}' },
    { method: 'POST', path: (ids) => `/webhook-deliveries/${ids.delivery}/replay`, scope: 'webhooks:write', openapi: '/webhook-deliveries/{delivery_id}/replay' },
  ];

  async function keyWith(scopes: string[]): Promise<string> {
    const { issueApiKey } = await import('../../main/services/api-keys.js');
    const account = await harness.instance.runtime.db.selectFrom('service_accounts').select('id').where('organization_id', '=', orgId(harness.instance)).executeTakeFirstOrThrow();
    const issued = await issueApiKey(harness.instance.runtime.db, {
      organizationId: orgId(harness.instance),
      serviceAccountId: account.id,
      name: `scoped ${scopes.join(',')}`,
      scopes: scopes as never,
      expiresAt: null,
      now: new Date().toISOString(),
    });
    return issued.plaintext;
  }

  async function fixtures() {
    const endpoint = await createEndpoint(harness.instance, { url: 'http://127.0.0.1:9/', event_types: ['case.created'] });
    await createCase(harness.instance, 'scope fixture');
    await harness.dispatcher.poll();
    const [delivery] = await deliveriesOf(harness.instance, endpoint.id);
    return { endpoint: endpoint.id, delivery: delivery?.id ?? '' };
  }

  it('the table covers every webhooks operation the OpenAPI document publishes', async () => {
    const doc = z.object({ paths: z.record(z.string(), z.record(z.string(), z.object({ tags: z.array(z.string()).optional() }).loose())) }).parse(
      (await harness.instance.request({ method: 'GET', url: '/api/v1/openapi.json' })).json(),
    );
    const published = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.includes('webhooks'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(published.sort()).toEqual(routes.map((route) => `${route.method} ${route.openapi}`).sort());
  });

  it.each(routes)('$method $openapi: allowed with only $scope, 403 with every other scope', async (route) => {
    const ids = await fixtures();
    const { ALL_SCOPES } = await import('../../main/common/scopes.js');
    const others = ALL_SCOPES.filter((scope) => scope !== route.scope);
    const denied = await harness.instance.request({ method: route.method, url: `/api/v1${route.path(ids)}`, key: await keyWith(others), ...(route.body !== undefined && { body: route.body }) });
    expect(errorOf(denied, 403, 'permission_denied').details).toEqual({ required_scopes: [route.scope] });
    const allowed = await harness.instance.request({ method: route.method, url: `/api/v1${route.path(ids)}`, key: await keyWith([route.scope]), ...(route.body !== undefined && { body: route.body }) });
    expect(allowed.statusCode, allowed.body).toBeLessThan(300);
  });

  it('mutating routes need an Idempotency-Key, and a retry with the same key replays the response (same secret)', async () => {
    const { instance } = harness;
    errorOf(await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body: { url: 'http://127.0.0.1:9/', event_types: ['*'] }, idempotencyKey: null }), 400, 'validation_error');
    const body = { url: 'http://127.0.0.1:9/idem', event_types: ['*'] };
    const first = dataOf(await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body, idempotencyKey: 'wh-create-1' }), WebhookEndpointWithSecret, 201);
    const again = await instance.request({ method: 'POST', url: '/api/v1/webhook-endpoints', body, idempotencyKey: 'wh-create-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.statusCode).toBe(201);
    expect(WebhookEndpointWithSecret.parse((again.json() as { data: unknown }).data)).toEqual(first);
    expect((await getEndpoint(instance, first.id)).id).toBe(first.id);
    const all = pageOf(await instance.request({ method: 'GET', url: '/api/v1/webhook-endpoints?limit=100' }), WebhookEndpoint).data;
    expect(all.filter((endpoint) => endpoint.url === body.url)).toHaveLength(1);
  });
});
