import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processIdentity } from '../../main/cluster/identity.js';
import { tryLock } from '../../main/db/locks.js';
import { insertJob } from '../../main/db/queries/jobs.js';
import { claimNextJob, recoverInterruptedJobs } from '../../main/services/jobs.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { orgId } from '../helpers/integration-support.js';
import { onPostgres } from '../helpers/test-database.js';

// Leases decide when a running job may be taken back: never while its holder is alive and renewing, at once
// when the holder was a process of this machine that is gone, and after expiry otherwise. Runner locks
// follow the same rule. On SQLite and (OBSCURA_TEST_DATABASE=postgres) on PostgreSQL.

/** The pid of a process that has already exited: its leases belong to nobody alive. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('leases', () => {
  let instance: TestInstance;
  let documentId: number;

  beforeAll(async () => {
    instance = await startInstance({ organizations: 1 });
    const caseId = await createCase(instance);
    const [document] = await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf() }]);
    documentId = Number(document?.id);
  });
  afterAll(() => instance.close());

  async function runningJob(owner: string, expiresInMs: number, attempts = 1): Promise<number> {
    const { db } = instance.runtime;
    const now = new Date().toISOString();
    const id = await insertJob(db, { organization_id: orgId(instance), document_id: documentId, kind: 'scan', status: 'queued', options: '{}', progress: 0, attempts: attempts - 1, created_at: now, updated_at: now });
    await db.transaction().execute(async (trx) => {
      // Claim it for `owner` (the oldest queued job is this one: the others of this file are settled or running).
      const claimed = await claimNextJob(trx, instance.runtime.clock, { owner, seconds: expiresInMs / 1000 });
      expect(claimed?.job.id).toBe(id);
    });
    return id;
  }

  const row = (id: number) => instance.runtime.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a live lease of another process is left alone; an expired one goes back to the queue with its attempt counted', async () => {
    const { db, clock } = instance.runtime;
    const live = await runningJob(`other-host/4242/abcd1234`, 60_000);
    const expired = await runningJob(`other-host/4243/abcd1234`, -1000);
    const result = await db.transaction().execute((trx) => recoverInterruptedJobs(trx, clock, 3));
    expect(result).toEqual({ requeued: 1, failed: 0 });
    expect(await row(live)).toMatchObject({ status: 'running', lease_owner: 'other-host/4242/abcd1234', attempts: 1 });
    expect(await row(expired)).toMatchObject({ status: 'queued', lease_owner: null, lease_expires_at: null, attempts: 1 });
    await db.updateTable('jobs').set({ status: 'failed' }).where('id', 'in', [live, expired]).execute();
  });

  it('an unexpired lease of a gone process of this machine is taken back at once; one at its last attempt fails', async () => {
    const { db, clock } = instance.runtime;
    const gone = `${os.hostname()}/${deadPid()}/deadbeef`;
    const resumable = await runningJob(gone, 60_000);
    const exhausted = await runningJob(gone, 60_000, 3);
    const mine = await runningJob(processIdentity(), 60_000);
    const result = await db.transaction().execute((trx) => recoverInterruptedJobs(trx, clock, 3));
    expect(result).toEqual({ requeued: 1, failed: 1 });
    expect(await row(resumable)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await row(exhausted)).toMatchObject({ status: 'failed', attempts: 3 });
    expect((await row(exhausted)).error_message).toMatch(/interrupted 3 times/);
    expect(await row(mine)).toMatchObject({ status: 'running', lease_owner: processIdentity() });
    await db.updateTable('jobs').set({ status: 'failed' }).where('id', 'in', [resumable, mine]).execute();
  });

  it('a runner lock has one owner; a gone owner or an expired lease lets another take it', async () => {
    const { db } = instance.runtime;
    const terms = (owner: string, leaseSeconds = 30) => ({ owner, leaseSeconds, now: () => new Date() });
    const first = await tryLock(db, 'test-runner', terms(processIdentity()));
    expect(first).not.toBeNull();
    expect(await tryLock(db, 'test-runner', terms(`other-host/1/ffffffff`))).toBeNull();
    expect(await first?.check()).toBe(true);
    await first?.release();
    const other = await tryLock(db, 'test-runner', terms(`${os.hostname()}/${deadPid()}/00000000`));
    expect(other).not.toBeNull();
    // SQLite: its holder is gone from this machine, so it is taken over without waiting for the lease.
    // PostgreSQL: an advisory lock lives as long as its session (a dead process's connection closes).
    if (onPostgres()) {
      expect(await tryLock(db, 'test-runner', terms(processIdentity()))).toBeNull();
      await other?.release();
    }
    const mine = await tryLock(db, 'test-runner', terms(processIdentity()));
    expect(mine).not.toBeNull();
    await mine?.release();
  });

  it('an idempotency claim left by a process that is gone no longer blocks the retry; a live one still does', async () => {
    const { db } = instance.runtime;
    const probe = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'probe' }, idempotencyKey: 'lease-probe' });
    expect(probe.statusCode).toBe(201);
    const { principal_id, principal_type } = await db.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', 'lease-probe').executeTakeFirstOrThrow();
    const claim = (key: string, claimedBy: string) =>
      db.insertInto('idempotency_keys').values({ principal_type, principal_id, idempotency_key: key, fingerprint: 'x', state: 'running', created_at: new Date().toISOString(), claimed_by: claimedBy }).execute();
    await claim('left-by-the-dead', `${os.hostname()}/${deadPid()}/0badc0de`);
    await claim('held-by-the-living', processIdentity());
    const retried = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'retried' }, idempotencyKey: 'left-by-the-dead' });
    expect(retried.statusCode).toBe(201);
    const blocked = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'blocked' }, idempotencyKey: 'held-by-the-living' });
    expect(blocked.statusCode).toBe(409);
  });
});
