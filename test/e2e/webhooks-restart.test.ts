import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';
import { inspectDatabase } from '../helpers/inspect-db.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

// A delivery in flight when `obscura serve` dies (SIGKILL) or is stopped (SIGTERM) is not lost: the
// attempt row was written before the request left, and the next start sends the delivery again.

const Created = z.object({ data: z.object({ id: z.string(), secret: z.string() }) });
const Deliveries = z.object({ data: z.array(z.object({ id: z.string(), status: z.string(), webhook_id: z.string() })) });
const Detail = z.object({
  data: z.object({ status: z.string(), attempt_count: z.number(), attempts: z.array(z.object({ number: z.number(), outcome: z.string(), status_code: z.number().nullable() })) }),
});

interface AttemptRow {
  outcome: string;
}
interface DeliveryRow {
  status: string;
}

async function readState(dataDir: string): Promise<{ attempts: string[]; deliveries: string[] }> {
  const db = await inspectDatabase(dataDir);
  try {
    return {
      attempts: (await db.all<AttemptRow>('SELECT outcome FROM webhook_delivery_attempts ORDER BY id')).map((row) => row.outcome),
      deliveries: (await db.all<DeliveryRow>('SELECT status FROM webhook_deliveries ORDER BY id')).map((row) => row.status),
    };
  } finally {
    await db.close();
  }
}

describe('webhook delivery across a restart', () => {
  let root: string;
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;

  beforeAll(() => {
    assertBuilt();
    root = tempDir('obscura-webhooks-restart-');
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    await receiver?.close();
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  async function prepare(name: string): Promise<{ dataDir: string; key: string }> {
    const dataDir = path.join(root, name);
    const { api_key: key } = await initDataDir(dataDir);
    // A long timeout: the receiver holds the first request open until the process is stopped.
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ webhooks: { pollIntervalMs: 50, timeoutSeconds: 60 } }));
    return { dataDir, key };
  }

  async function endpointAndCase(url: string, key: string, target: Receiver) {
    const created = await apiFetch(url, key, 'POST', '/webhook-endpoints', { url: `${target.url}/hook`, event_types: ['case.created'] });
    expect(created.status).toBe(201);
    const endpoint = Created.parse(created.json).data;
    expect((await apiFetch(url, key, 'POST', '/cases', { name: 'Delivered across a restart' })).status).toBe(201);
    return endpoint;
  }

  async function expectDeliveredAfterRestart(dataDir: string, key: string, endpoint: { id: string; secret: string }, target: Receiver, firstOutcome: string) {
    server = await startServer(dataDir);
    const hits = await target.waitFor(2, 15_000);
    expect(hits).toHaveLength(2);
    const [before, after] = hits.map((hit) => ({ hit, payload: verifyDelivery(endpoint.secret, hit) }));
    expect(after?.hit.headers['webhook-id']).toBe(before?.hit.headers['webhook-id']);
    expect(after?.hit.body).toBe(before?.hit.body);
    expect(after?.payload.type).toBe('case.created');

    const list = Deliveries.parse((await apiFetch(server.url, key, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).json).data;
    expect(list).toHaveLength(1);
    expect(list[0]?.webhook_id).toBe(before?.hit.headers['webhook-id']);
    // Settled a moment after the receiver answered.
    let detail = Detail.parse((await apiFetch(server.url, key, 'GET', `/webhook-deliveries/${list[0]?.id ?? ''}`)).json).data;
    for (let tries = 0; detail.status !== 'succeeded' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      detail = Detail.parse((await apiFetch(server.url, key, 'GET', `/webhook-deliveries/${list[0]?.id ?? ''}`)).json).data;
    }
    expect(detail.status).toBe('succeeded');
    expect(detail.attempts.map((attempt) => [attempt.number, attempt.outcome, attempt.status_code])).toEqual([
      [1, firstOutcome, null],
      [2, 'succeeded', 200],
    ]);
  }

  it('SIGKILL while the receiver holds the request open: the attempt was recorded in flight and is sent again after restart', async () => {
    const { dataDir, key } = await prepare('sigkill');
    receiver = await startReceiver();
    receiver.queue({ hang: true });
    server = await startServer(dataDir);
    const endpoint = await endpointAndCase(server.url, key, receiver);
    await receiver.waitFor(1);

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    server = undefined;
    expect(await readState(dataDir)).toEqual({ attempts: ['in_flight'], deliveries: ['delivering'] });

    await expectDeliveredAfterRestart(dataDir, key, endpoint, receiver, 'interrupted');
  });

  it('SIGTERM does not wait for a hanging receiver: the attempt is recorded interrupted and sent again at the next start', async () => {
    const { dataDir, key } = await prepare('sigterm');
    receiver = await startReceiver();
    receiver.queue({ hang: true });
    server = await startServer(dataDir);
    const endpoint = await endpointAndCase(server.url, key, receiver);
    await receiver.waitFor(1);

    const stoppedAt = Date.now();
    const exit = await server.stop('SIGTERM');
    server = undefined;
    expect(exit.code).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(await readState(dataDir)).toEqual({ attempts: ['interrupted'], deliveries: ['pending'] });

    await expectDeliveredAfterRestart(dataDir, key, endpoint, receiver, 'interrupted');
  });
});
