import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, databaseUrlFor, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';
import { startWorkerProcess, type WorkerProcess } from '../helpers/cluster-processes.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { onPostgres } from '../helpers/test-database.js';

// Two `obscura serve` and two `obscura worker` processes on one database (the shared SQLite file of one data
// directory, or PostgreSQL with OBSCURA_TEST_DATABASE=postgres): 1,000 jobs, one worker SIGKILLed while it
// runs some of them. Every job completes exactly once, and the webhook receiver gets each job.completed
// event once, in the order of the outbox.

const JOBS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface JobRow {
  id: number;
  status: string;
  attempts: number;
  lease_owner: string | null;
}

/** Reads rows with plain SQL that both databases understand, on one connection kept open. */
class Reader {
  private sqlite: SQLite.Database | null = null;
  private client: pg.Client | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly databaseUrl: string | undefined,
  ) {}

  async rows<T>(text: string): Promise<T[]> {
    if (this.databaseUrl !== undefined) {
      if (!this.client) {
        this.client = new pg.Client({ connectionString: this.databaseUrl });
        await this.client.connect();
      }
      return (await this.client.query(text)).rows as T[];
    }
    this.sqlite ??= new SQLite(path.join(this.dataDir, 'obscura.db'), { readonly: true });
    return this.sqlite.prepare(text).all() as T[];
  }

  async close(): Promise<void> {
    this.sqlite?.close();
    await this.client?.end();
  }
}

async function mapLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++] as T);
  }));
}

describe(`several processes on one ${onPostgres() ? 'PostgreSQL database' : 'SQLite data directory'}`, () => {
  let root: string;
  let dataDir: string;
  let receiver: Receiver;
  let reader: Reader | undefined;
  const servers: ServerProcess[] = [];
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-multi-process-');
    dataDir = path.join(root, 'data');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([...servers, ...workers].map((child) => child.stop('SIGKILL')));
    await receiver.close();
    await reader?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('1,000 jobs over two servers and two workers, one worker SIGKILLed: each job done once, each event delivered once in order', async () => {
    const { api_key: key } = await initDataDir(dataDir);
    reader = new Reader(dataDir, await databaseUrlFor(dataDir));
    // Default leases (30 s): the killed worker's jobs come back at once because its pid is gone from this
    // machine, while live processes starved of CPU or of the SQLite write lock for a few seconds keep theirs.
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ webhooks: { pollIntervalMs: 50 } }));
    servers.push(await startServer(dataDir, ['--no-rate-limits'], 30_000));
    const [first] = servers as [ServerProcess];
    servers.push(await startServer(dataDir, ['--no-rate-limits'], 30_000));
    workers.push(await startWorkerProcess(dataDir), await startWorkerProcess(dataDir));
    const [, second] = servers as [ServerProcess, ServerProcess];
    const [keeper, victim] = workers as [WorkerProcess, WorkerProcess];

    expect((await apiFetch(first.url, key, 'PATCH', '/processing-settings', { auto_process: false })).status).toBe(200);
    const endpoint = await apiFetch(first.url, key, 'POST', '/webhook-endpoints', { url: `${receiver.url}/hook`, event_types: ['job.completed', 'job.failed'] });
    expect(endpoint.status).toBe(201);
    const secret = (endpoint.json as { data: { secret: string } }).data.secret;
    const created = await apiFetch(second.url, key, 'POST', '/cases', { name: 'Shared office' });
    const caseId = (created.json as { data: { id: string } }).data.id;
    const pdf = minimalPdf('multi-process');
    const session = (await apiFetch(second.url, key, 'POST', `/cases/${caseId}/upload-sessions`, { files: [{ name: 'a.pdf', size: pdf.length }] })).json as { data: { id: string; files: { upload_url: string }[] } };
    expect((await fetch(session.data.files[0]?.upload_url ?? '', { method: 'PUT', body: pdf })).status).toBe(200);
    const completed = (await apiFetch(first.url, key, 'POST', `/upload-sessions/${session.data.id}/complete`)).json as { data: { documents: { id: string }[] } };
    const documentId = completed.data.documents[0]?.id ?? '';

    // Both servers take the requests; all four processes run jobs.
    const statuses: number[] = [];
    let killedAt = -1;
    const kill = (async () => {
      const done = "SELECT count(*) AS n FROM jobs WHERE status = 'completed'";
      while (Number((await reader.rows<{ n: number }>(done))[0]?.n) < JOBS * 0.3) await sleep(20);
      // Killed while it holds jobs: they must come back and run elsewhere, and only they may run twice.
      const holding = `SELECT id FROM jobs WHERE status = 'running' AND lease_owner LIKE '%/${victim.child.pid ?? 0}/%'`;
      const deadline = Date.now() + 20_000;
      while ((await reader.rows(holding)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      killedAt = Number((await reader.rows<{ n: number }>(done))[0]?.n);
      victim.child.kill('SIGKILL');
      const exit = await victim.exited;
      if (exit.signal !== 'SIGKILL') throw new Error(`the worker had already ended (${exit.code}): ${victim.output().stderr}`);
    })();
    await mapLimit(
      Array.from({ length: JOBS }, (_, index) => index),
      12,
      async (index) => {
        const server = index % 2 === 0 ? first : second;
        statuses.push((await apiFetch(server.url, key, 'POST', `/documents/${documentId}/scan-jobs`, {})).status);
      },
    );
    expect(statuses.filter((status) => status === 202)).toHaveLength(JOBS);
    await kill;
    await receiver.waitFor(JOBS, 60_000);
    await sleep(500); // a duplicate would arrive now

    const jobs = await reader.rows<JobRow>('SELECT id, status, attempts, lease_owner FROM jobs ORDER BY id');
    expect(jobs).toHaveLength(JOBS);
    expect(jobs.filter((job) => job.status !== 'completed')).toEqual([]);
    // The killed worker's running jobs were taken back and run again (their attempt counted); no other job ran twice.
    const retried = jobs.filter((job) => Number(job.attempts) === 2);
    expect(retried.length).toBeGreaterThanOrEqual(1);
    expect(retried.length).toBeLessThanOrEqual(8);
    expect(jobs.filter((job) => Number(job.attempts) > 2)).toEqual([]);
    // Every process finished some of the jobs (lease_owner keeps who did).
    const pids = new Set(jobs.map((job) => job.lease_owner?.split('/').at(-2)));
    for (const child of [first.child, second.child, keeper.child]) expect(pids.has(String(child.pid))).toBe(true);
    // Exactly one outcome recorded per job: one job.completed event and one audit record each.
    const events = await reader.rows<{ id: number; event_id: string; resource_id: string }>("SELECT id, event_id, resource_id FROM outbox_events WHERE type = 'job.completed' ORDER BY id");
    expect(events).toHaveLength(JOBS);
    expect(new Set(events.map((event) => event.resource_id)).size).toBe(JOBS);
    const audits = await reader.rows<{ n: number }>("SELECT count(*) AS n FROM audit_log WHERE action = 'job.complete'");
    expect(Number(audits[0]?.n)).toBe(JOBS);

    // Delivered once each, signed, in outbox order.
    expect(receiver.received).toHaveLength(JOBS);
    const payloads = receiver.received.map((hit) => verifyDelivery(secret, hit));
    expect(payloads.every((payload) => payload.type === 'job.completed')).toBe(true);
    expect(receiver.received.map((hit) => hit.headers['webhook-id'])).toEqual(events.map((event) => event.event_id));
    console.log(`multi-process: worker killed after ${killedAt} completed jobs; ${retried.length} jobs ran again; ${pids.size} processes finished jobs`);

    for (const child of [first, second, keeper]) expect((await child.stop('SIGTERM')).code).toBe(0);
  }, 120_000);
});
