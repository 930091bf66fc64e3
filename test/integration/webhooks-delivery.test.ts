import { afterEach, describe, expect, it } from 'vitest';
import { WebhookVerificationError } from 'standardwebhooks';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '../../main/common/schemas/webhooks.js';
import { runMaintenance } from '../../main/jobs/maintenance.js';
import { createCase } from '../helpers/instance.js';
import { auditOf, dataOf, manualClock, type ManualClock } from '../helpers/integration-support.js';
import { signaturesOf, startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { createEndpoint, deliveriesOf, deliveryDetail, getEndpoint, onlyDelivery, startWebhookHarness, type WebhookHarness } from '../helpers/webhooks-support.js';

// Retry timing, disabling, rotation and timeouts. The dispatcher runs on a clock the test moves by hand,
// started at the real time: receivers verify with standardwebhooks, which refuses timestamps more than
// five minutes from the real clock, so every scenario stays within a few minutes of it.

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of open.splice(0).reverse()) await resource.close();
});

async function setup(webhooks: Record<string, unknown>): Promise<{ harness: WebhookHarness; clock: ManualClock; receiver: Receiver }> {
  const clock = manualClock(new Date().toISOString());
  const harness = await startWebhookHarness({ clock, organizations: 1, config: { webhooks } });
  open.push(harness);
  const receiver = await startReceiver();
  open.push(receiver);
  return { harness, clock, receiver };
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

describe('retries', () => {
  it('retries on the schedule: never before an attempt is due, at once when it is; the same signed message each time', async () => {
    const { harness, clock, receiver } = await setup({ retryScheduleSeconds: [5, 30, 120] });
    const { instance } = harness;
    receiver.queue({ status: 500, body: 'boom' }, { status: 503 });
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    const started = clock.now().toISOString();
    await createCase(instance, 'Retry me');

    await harness.drain();
    expect(receiver.received).toHaveLength(1);
    let delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 500 });
    expect(seconds(started, delivery.next_attempt_at ?? '')).toBe(5);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'failed', status_code: 500, response_excerpt: null }); // answers are not kept by default (docs/security.md)
    expect((await getEndpoint(instance, endpoint.id)).failing_since).toBe(started);

    clock.advance(4_999);
    await harness.drain();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    await harness.drain();
    expect(receiver.received).toHaveLength(2);
    delivery = await onlyDelivery(instance, endpoint.id);
    expect(seconds(started, delivery.next_attempt_at ?? '')).toBe(35);

    clock.advance(29_999);
    await harness.drain();
    expect(receiver.received).toHaveLength(2);
    clock.advance(1);
    await harness.drain();
    expect(receiver.received).toHaveLength(3);

    delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, last_status_code: 200, next_attempt_at: null });
    expect(delivery.attempts.map((attempt) => [attempt.number, attempt.outcome, attempt.status_code, seconds(started, attempt.started_at)])).toEqual([
      [1, 'failed', 500, 0],
      [2, 'failed', 503, 5],
      [3, 'succeeded', 200, 35],
    ]);
    // Every attempt verifies, carries the same webhook-id and body, and is stamped with its own time.
    const payloads = receiver.received.map((hit) => verifyDelivery(endpoint.secret, hit));
    expect(new Set(receiver.received.map((hit) => hit.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((hit) => hit.body)).size).toBe(1);
    expect(payloads[0]?.type).toBe('case.created');
    const stamps = receiver.received.map((hit) => Number(hit.headers['webhook-timestamp']));
    expect(stamps.map((stamp) => stamp - (stamps[0] ?? 0))).toEqual([0, 5, 35]);
    // A success ends the endpoint's failure streak.
    expect((await getEndpoint(instance, endpoint.id)).failing_since).toBeNull();
  });

  it('gives up after the last retry of the schedule and sends nothing more', async () => {
    const { harness, clock, receiver } = await setup({ retryScheduleSeconds: [1, 2] });
    const { instance } = harness;
    receiver.fallback = { status: 500, body: 'down' };
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    await createCase(instance, 'Never arrives');
    for (const step of [0, 1_000, 2_000, 60_000]) {
      clock.advance(step);
      await harness.drain();
    }
    expect(receiver.received).toHaveLength(3);
    for (const hit of receiver.received) verifyDelivery(endpoint.secret, hit);
    const delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', failure_reason: 'attempts_exhausted', attempt_count: 3, next_attempt_at: null });
    expect((await getEndpoint(instance, endpoint.id)).enabled).toBe(true);
  });

  it('a receiver that hangs fails the attempt at the timeout; one that answers slowly within it succeeds', async () => {
    const { harness, clock, receiver } = await setup({ timeoutSeconds: 0.5, retryScheduleSeconds: [5] });
    const { instance } = harness;
    receiver.queue({ hang: true }, { status: 204, delayMs: 300 });
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    await createCase(instance, 'Slow receiver');

    const before = Date.now();
    await harness.drain();
    expect(Date.now() - before).toBeGreaterThanOrEqual(450);
    let delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'failed', status_code: null, error: 'no answer within 0.5 s (webhooks.timeoutSeconds)' });
    expect(delivery.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(450);
    expect(delivery.attempts[0]?.duration_ms).toBeLessThan(3_000);

    clock.advance(5_000);
    await harness.drain();
    delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts[1]).toMatchObject({ outcome: 'succeeded', status_code: 204 });
    expect(delivery.attempts[1]?.duration_ms).toBeGreaterThanOrEqual(290);
    expect(receiver.received).toHaveLength(2);
    for (const hit of receiver.received) verifyDelivery(endpoint.secret, hit);
  });

  it('an unreachable receiver is a failed attempt with the reason', async () => {
    const { harness, receiver } = await setup({});
    const { instance } = harness;
    await receiver.close();
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    await createCase(instance, 'Nobody listens');
    await harness.drain();
    const delivery = await onlyDelivery(instance, endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'failed', status_code: null, error: expect.stringContaining('connection refused') });
  });
});

describe('disabling', () => {
  it('410 Gone disables the endpoint at once, ends its other deliveries and emits webhook.endpoint_disabled', async () => {
    const { harness, receiver } = await setup({});
    const { instance } = harness;
    const watcherReceiver = await startReceiver();
    open.push(watcherReceiver);
    const watcher = await createEndpoint(instance, { url: watcherReceiver.url, event_types: ['webhook.endpoint_disabled'] });
    receiver.fallback = { status: 410, body: 'gone for good' };
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    await createCase(instance, 'First');
    await createCase(instance, 'Second');
    await harness.drain();

    expect(receiver.received).toHaveLength(1);
    verifyDelivery(endpoint.secret, receiver.received[0] ?? { path: '', headers: {}, body: '', at: 0 });
    expect(await getEndpoint(instance, endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const [second, first] = await deliveriesOf(instance, endpoint.id);
    expect(first).toMatchObject({ status: 'failed', failure_reason: 'endpoint_gone', last_status_code: 410, attempt_count: 1 });
    expect(second).toMatchObject({ status: 'failed', failure_reason: 'endpoint_disabled', attempt_count: 0 });

    const [notice] = await watcherReceiver.waitFor(1);
    const payload = verifyDelivery(watcher.secret, notice ?? { path: '', headers: {}, body: '', at: 0 });
    expect(payload.type).toBe('webhook.endpoint_disabled');
    expect(payload.data).toMatchObject({ reason: 'gone', last_status_code: 410, delivery_id: first?.id, endpoint: { id: endpoint.id, enabled: false, disabled_reason: 'gone' } });
    expect(JSON.stringify(payload)).not.toContain(endpoint.secret);
    expect((await auditOf(instance, 'webhook_endpoint', endpoint.id)).map((row) => [row.action, row.actor_type])).toContainEqual(['webhook_endpoint.disable', 'system']);

    // Nothing more is fanned out to it.
    await createCase(instance, 'Third');
    await harness.drain();
    expect(await deliveriesOf(instance, endpoint.id)).toHaveLength(2);
    expect(receiver.received).toHaveLength(1);
  });

  it('an endpoint failing for webhooks.disableAfterHours is disabled with reason failing', async () => {
    // 0.01 h = 36 s of failures, on a 10 s retry schedule.
    const { harness, clock, receiver } = await setup({ disableAfterHours: 0.01, retryScheduleSeconds: [10, 10, 10, 10, 10, 10] });
    const { instance } = harness;
    receiver.fallback = { status: 503 };
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    const started = clock.now().toISOString();
    await createCase(instance, 'Failing');
    await harness.drain();
    for (let step = 1; step <= 3; step += 1) {
      clock.advance(10_000);
      await harness.drain();
      expect(await getEndpoint(instance, endpoint.id)).toMatchObject({ enabled: true, failing_since: started });
    }
    expect(receiver.received).toHaveLength(4);
    clock.advance(10_000);
    await harness.drain();
    expect(receiver.received).toHaveLength(5);
    expect(await getEndpoint(instance, endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'failing', failing_since: started });
    expect(await onlyDelivery(instance, endpoint.id)).toMatchObject({ status: 'failed', failure_reason: 'endpoint_disabled', attempt_count: 5 });
    const events = await instance.runtime.db.selectFrom('outbox_events').selectAll().where('type', '=', 'webhook.endpoint_disabled').execute();
    expect(events.map((event) => JSON.parse(event.payload) as unknown)).toEqual([
      expect.objectContaining({ reason: 'failing', failing_since: started, last_status_code: 503, endpoint: expect.objectContaining({ id: endpoint.id }) }),
    ]);
    // Enabling it again forgets the streak.
    const enabled = dataOf(await instance.request({ method: 'PATCH', url: `/api/v1/webhook-endpoints/${endpoint.id}`, body: { enabled: true } }), WebhookEndpoint);
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    for (const hit of receiver.received) verifyDelivery(endpoint.secret, hit);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets during the overlap, only the new one after; rotating again drops the oldest', async () => {
    // 0.01 h = 36 s of overlap.
    const { harness, clock, receiver } = await setup({ secretOverlapHours: 0.01 });
    const { instance } = harness;
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    const hitFor = async (name: string) => {
      const count = receiver.received.length;
      await createCase(instance, name);
      await harness.drain();
      const hit = receiver.received[count];
      if (!hit || receiver.received.length !== count + 1) throw new Error(`expected one delivery for ${name}`);
      return hit;
    };

    const before = await hitFor('before rotation');
    expect(signaturesOf(before)).toHaveLength(1);
    verifyDelivery(endpoint.secret, before);

    const rotate = async () => dataOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret` }), WebhookEndpointWithSecret);
    const rotated = await rotate();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(seconds(rotated.secret_rotated_at ?? '', rotated.previous_secret_expires_at ?? '')).toBe(36);
    expect((await instance.request({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}` })).body).not.toContain(rotated.secret);

    const during = await hitFor('during overlap');
    expect(signaturesOf(during)).toHaveLength(2);
    expect(verifyDelivery(endpoint.secret, during).type).toBe('case.created');
    expect(verifyDelivery(rotated.secret, during).type).toBe('case.created');

    clock.advance(35_000);
    const late = await hitFor('end of overlap');
    verifyDelivery(endpoint.secret, late);
    verifyDelivery(rotated.secret, late);

    clock.advance(1_001);
    const after = await hitFor('after overlap');
    expect(signaturesOf(after)).toHaveLength(1);
    verifyDelivery(rotated.secret, after);
    expect(() => verifyDelivery(endpoint.secret, after)).toThrow(WebhookVerificationError);

    const third = await rotate();
    const fourth = await rotate();
    const twice = await hitFor('rotated twice');
    expect(signaturesOf(twice)).toHaveLength(2);
    verifyDelivery(fourth.secret, twice);
    verifyDelivery(third.secret, twice);
    expect(() => verifyDelivery(rotated.secret, twice)).toThrow(WebhookVerificationError);
    expect((await auditOf(instance, 'webhook_endpoint', endpoint.id)).filter((row) => row.action === 'webhook_endpoint.rotate_secret')).toHaveLength(3);
  });

  it('with an overlap of 0 the old secret stops at once', async () => {
    const { harness, receiver } = await setup({ secretOverlapHours: 0 });
    const { instance } = harness;
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    const rotated = dataOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret` }), WebhookEndpointWithSecret);
    expect(rotated.previous_secret_expires_at).toBeNull();
    await createCase(instance, 'after');
    await harness.drain();
    const [hit] = receiver.received;
    if (!hit) throw new Error('not delivered');
    verifyDelivery(rotated.secret, hit);
    expect(() => verifyDelivery(endpoint.secret, hit)).toThrow(WebhookVerificationError);
    expect((await deliveryDetail(instance, (await deliveriesOf(instance, endpoint.id))[0]?.id ?? '')).status).toBe('succeeded');
  });
});

describe('retention', () => {
  it('maintenance removes deliveries finished longer ago than webhooks.deliveryRetentionDays, replays first, and keeps younger ones', async () => {
    const { harness, clock, receiver } = await setup({ deliveryRetentionDays: 1 });
    const { instance } = harness;
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    await createCase(instance, 'Old one');
    await createCase(instance, 'Old two');
    await harness.drain();
    const [second, first] = await deliveriesOf(instance, endpoint.id);
    if (!first || !second) throw new Error('two deliveries expected');
    dataOf(await instance.request({ method: 'POST', url: `/api/v1/webhook-deliveries/${first.id}/replay` }), WebhookDelivery, 202);
    await harness.drain();
    expect((await deliveriesOf(instance, endpoint.id)).map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    clock.advance(12 * 3600_000);
    await createCase(instance, 'Young');
    await harness.drain();
    const young = (await deliveriesOf(instance, endpoint.id))[0];

    // A day and a bit after the first three finished, twelve hours after the young one.
    clock.advance(12 * 3600_000 + 60_000);
    await runMaintenance(instance.runtime);
    const left = await deliveriesOf(instance, endpoint.id);
    expect(left.map((delivery) => delivery.id)).toEqual([young?.id]);
    const gone = await instance.request({ method: 'GET', url: `/api/v1/webhook-deliveries/${first.id}` });
    expect(gone.statusCode).toBe(404);
    expect((await deliveryDetail(instance, young?.id ?? '')).attempts).toHaveLength(1);
  });

  it('keeps every delivery when the retention is 0', async () => {
    const { harness, clock, receiver } = await setup({ deliveryRetentionDays: 0 });
    const { instance } = harness;
    const endpoint = await createEndpoint(instance, { url: receiver.url, event_types: ['case.created'] });
    await createCase(instance, 'Kept');
    await harness.drain();
    clock.advance(400 * 86_400_000);
    await runMaintenance(instance.runtime);
    expect(await deliveriesOf(instance, endpoint.id)).toHaveLength(1);
  });
});
