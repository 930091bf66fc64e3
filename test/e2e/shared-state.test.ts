import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { onPostgres } from '../helpers/test-database.js';

// Two `obscura serve` processes on one database: what one process changes, the other sees (revoked keys,
// deactivated accounts, cached cases), and the singleton webhook delivery moves to the survivor when its
// owner is SIGKILLed.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds until `probe` returns true, polling every 10 ms; throws after `limitMs`. */
async function msUntil(probe: () => Promise<boolean>, limitMs = 5000): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await sleep(10);
  }
  return Date.now() - started;
}

describe(`shared state between two servers (${onPostgres() ? 'PostgreSQL' : 'SQLite'})`, () => {
  let root: string;
  let dataDir: string;
  let key: string;
  let admin: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let receiver: Receiver;

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-shared-state-');
    dataDir = path.join(root, 'data');
    const credentials = await initDataDir(dataDir);
    key = credentials.api_key;
    admin = credentials.admin_username;
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ leases: { seconds: 9 }, webhooks: { pollIntervalMs: 50 } }));
    a = await startServer(dataDir, ['--no-rate-limits'], 30_000);
    b = await startServer(dataDir, ['--no-rate-limits'], 30_000);
    receiver = await startReceiver();
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a.stop('SIGKILL'), b.stop('SIGKILL')]);
    await receiver.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function issueKey(scopes: string[]): Promise<{ id: string; secret: string; accountId: string }> {
    const account = await apiFetch(a.url, key, 'POST', '/service-accounts', { name: `acct-${Date.now()}`, max_scopes: scopes });
    expect(account.status).toBe(201);
    const accountId = (account.json as { data: { id: string } }).data.id;
    const issued = await apiFetch(a.url, key, 'POST', '/api-keys', { service_account_id: accountId, name: 'k', scopes });
    expect(issued.status).toBe(201);
    const data = (issued.json as { data: { id: string; secret: string } }).data;
    return { ...data, accountId };
  }

  it('a key revoked through one server is refused by the other within 0.5 s, though the other had it cached', async () => {
    const issued = await issueKey(['cases:read']);
    for (let i = 0; i < 3; i += 1) expect((await apiFetch(b.url, issued.secret, 'GET', '/cases')).status).toBe(200);
    expect((await apiFetch(a.url, key, 'POST', `/api-keys/${issued.id}/revoke`)).status).toBe(200);
    expect((await apiFetch(a.url, issued.secret, 'GET', '/cases')).status).toBe(401);
    const ms = await msUntil(async () => (await apiFetch(b.url, issued.secret, 'GET', '/cases')).status === 401);
    expect(ms).toBeLessThan(500);
  });

  it('an account deactivated through one server gets 403 from the other', async () => {
    const issued = await issueKey(['cases:read']);
    expect((await apiFetch(b.url, issued.secret, 'GET', '/cases')).status).toBe(200);
    expect((await apiFetch(a.url, key, 'PATCH', `/service-accounts/${issued.accountId}`, { active: false })).status).toBe(200);
    const ms = await msUntil(async () => (await apiFetch(b.url, issued.secret, 'GET', '/cases')).status === 403);
    expect(ms).toBeLessThan(500);
  });

  it('a case renamed through one server reads renamed from the other (its cache of case rows is dropped)', async () => {
    const created = await apiFetch(a.url, key, 'POST', '/cases', { name: 'Before' });
    const id = (created.json as { data: { id: string } }).data.id;
    const nameOn = async (server: ServerProcess) => ((await apiFetch(server.url, key, 'GET', `/cases/${id}`)).json as { data: { name: string } }).data.name;
    expect(await nameOn(b)).toBe('Before');
    expect(await nameOn(b)).toBe('Before');
    expect((await apiFetch(a.url, key, 'PATCH', `/cases/${id}`, { name: 'After' })).status).toBe(200);
    const ms = await msUntil(async () => (await nameOn(b)) === 'After');
    expect(ms).toBeLessThan(500);
  });

  it('failed sign-ins are counted across servers: the delay starts after the free failures, wherever they were made', async () => {
    const signIn = async (server: ServerProcess) =>
      (await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: admin, password: 'not the password' }) })).status;
    // Five free failures (loginThrottle.perAccount), alternating between the servers; the sixth starts a delay.
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push(await signIn(attempt % 2 === 0 ? a : b));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    expect(await signIn(a)).toBe(429);
    expect(await signIn(b)).toBe(429);
  });

  it('webhook delivery moves to the surviving server when its owner is SIGKILLed', async () => {
    // The first server started owns the webhook dispatcher.
    const endpoint = await apiFetch(b.url, key, 'POST', '/webhook-endpoints', { url: `${receiver.url}/hook`, event_types: ['case.created'] });
    expect(endpoint.status).toBe(201);
    const secret = (endpoint.json as { data: { secret: string } }).data.secret;
    expect((await apiFetch(b.url, key, 'POST', '/cases', { name: 'Seen by the owner' })).status).toBe(201);
    await receiver.waitFor(1, 10_000);
    // Killed once that delivery is recorded (an attempt in flight at a kill is sent again: at least once).
    const endpointId = (endpoint.json as { data: { id: string } }).data.id;
    const settled = async () => ((await apiFetch(b.url, key, 'GET', `/webhook-endpoints/${endpointId}/deliveries`)).json as { data: { status: string }[] }).data.every((delivery) => delivery.status === 'succeeded');
    await msUntil(settled);
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    expect((await apiFetch(b.url, key, 'POST', '/cases', { name: 'Seen after the owner died' })).status).toBe(201);
    // The survivor tries for the lock every third of leases.seconds (3 s here).
    const hits = await receiver.waitFor(2, 15_000);
    const names = hits.map((hit) => (verifyDelivery(secret, hit).data as { case: { name: string } }).case.name);
    expect(names).toEqual(['Seen by the owner', 'Seen after the owner died']);
    await sleep(300);
    expect(receiver.received).toHaveLength(2);
  });
});
