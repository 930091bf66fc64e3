import { onJobsQueued } from '../db/change-signals.js';
import { transact } from '../db/transaction.js';
import type { Runtime } from '../runtime.js';
import { claimNextJob, completeJob, failJob, recoverInterruptedJobs, requeueStoppedJob, setJobProgress, type ClaimedJob } from '../services/jobs.js';
import { anyQueuedJob, renewJobLeases } from '../db/queries/jobs.js';
import { leaseExpiry, processIdentity, type LeaseTerms } from '../cluster/identity.js';
import { JOB_HANDLERS } from './kinds/index.js';
import { WorkerPool } from './pool.js';
import { CoalescedPass } from './coalesced-pass.js';
import { failureDetail } from './failure-detail.js';
import { passwordBlock } from '../services/pdf-password/index.js';

/** Progress is written at most this often per job: one SQLite write per page would be wasteful on big files. */
const PROGRESS_INTERVAL_MS = 250;
/** A fallback sweep in case a queued job was missed (e.g. inserted by another tool). */
const POLL_INTERVAL_MS = 2_000;
/**
 * Jobs queued by another process (several servers and workers on one database) wake no listener here: with a
 * free thread the scheduler looks for one this often, with a read that takes no lock.
 */
const PEEK_INTERVAL_MS = 200;

export interface SchedulerOptions {
  poolSize?: number;
  /** A pool shared with other background work (the export runner); its owner destroys it, not stop(). */
  pool?: WorkerPool;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  /** Why the task was aborted: the job's outcome depends on it. */
  stopReason: 'time_limit' | 'shutdown' | 'lease_lost' | null;
  claimedAt: number;
}

/**
 * Takes queued jobs oldest first, runs them on the worker pool (at most one per thread) and writes their
 * progress and outcome. The main process stays the only database writer: workers only return values.
 */
export class JobScheduler {
  private readonly pool: WorkerPool;
  private readonly ownsPool: boolean;
  private readonly running = new Map<number, Running>();
  private stopped = false;
  private readonly passes = new CoalescedPass(() => this.fill(), () => this.stopped, 'job scheduler failed to claim jobs');
  private readonly timer: NodeJS.Timeout;
  private readonly leaseTimer: NodeJS.Timeout;
  private readonly peekTimer: NodeJS.Timeout;
  private peeking = false;
  private readonly unsubscribe: () => void;
  private readonly lease: LeaseTerms;
  private leaseWork: Promise<void> = Promise.resolve();

  constructor(
    private readonly runtime: Runtime,
    options: SchedulerOptions = {},
  ) {
    this.ownsPool = options.pool === undefined;
    this.pool = options.pool ?? new WorkerPool(options.poolSize);
    this.lease = { owner: processIdentity(), seconds: runtime.config.leases.seconds };
    this.unsubscribe = onJobsQueued(() => setImmediate(() => this.wake()));
    this.timer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    this.timer.unref();
    this.peekTimer = setInterval(() => {
      if (this.stopped || this.peeking || this.running.size >= this.pool.size) return;
      this.peeking = true;
      anyQueuedJob(runtime.db)
        .then((queued) => queued && this.wake())
        .catch(() => undefined)
        .finally(() => (this.peeking = false));
    }, PEEK_INTERVAL_MS);
    this.peekTimer.unref();
    // A third of the lease: two renewals may fail (a busy database) before the lease lapses.
    this.leaseTimer = setInterval(() => {
      this.leaseWork = this.leaseWork.then(() => this.tendLeases()).catch((error: unknown) => console.error('job scheduler could not renew its leases:', error));
    }, (this.lease.seconds * 1000) / 3);
    this.leaseTimer.unref();
    this.wake();
  }

  /**
   * Renews the leases of the jobs this process runs; a job whose lease was lost (this process stalled past
   * it and another took the job back) is aborted here and its outcome discarded. Then takes back the jobs of
   * other processes whose leases lapsed, so work of a killed process resumes elsewhere.
   */
  private async tendLeases(): Promise<void> {
    const { db, clock, config } = this.runtime;
    if (this.stopped) return;
    const held = new Set(await renewJobLeases(db, this.lease.owner, leaseExpiry(this.lease.seconds)));
    for (const [id, entry] of this.running) {
      if (!held.has(id) && entry.stopReason === null && entry.claimedAt < Date.now() - 1000) {
        entry.stopReason = 'lease_lost';
        entry.controller.abort();
      }
    }
    const recovered = await transact(db, (trx) => recoverInterruptedJobs(trx, clock, config.jobs.maxAttempts));
    if (recovered.requeued > 0) this.wake();
  }

  /** Fills free threads with queued jobs; concurrent calls coalesce into one more pass. */
  wake(): void {
    this.passes.wake();
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.pool.size) {
      // Not transact(): the claim is one SKIP LOCKED statement, exclusive under plain READ COMMITTED.
      const claimed = await this.runtime.db.transaction().execute((trx) => claimNextJob(trx, this.runtime.clock, this.lease));
      if (!claimed) return;
      this.start(claimed);
    }
  }

  private start(claimed: ClaimedJob): void {
    const entry: Running = { controller: new AbortController(), done: Promise.resolve(), stopReason: null, claimedAt: Date.now() };
    this.running.set(claimed.job.id, entry);
    entry.done = this.execute(claimed, entry)
      .catch((error: unknown) => console.error(`job ${claimed.job.id} could not be settled:`, error))
      .finally(() => {
        this.running.delete(claimed.job.id);
        this.wake();
      });
  }

  private async execute({ job, blob }: ClaimedJob, entry: Running): Promise<void> {
    const { db, clock } = this.runtime;
    const owner = this.lease.owner;
    if (!blob) {
      await transact(db, (trx) => failJob(trx, clock, job.id, 'the document was deleted before the job ran', 'running', owner));
      return;
    }
    // A PDF waiting for its password would only fail obscurely inside the worker.
    const locked = await passwordBlock(db, job.document_id, job.kind);
    if (locked) {
      await transact(db, (trx) => failJob(trx, clock, job.id, `the ${job.kind} job failed: ${locked}`, 'running', owner));
      return;
    }
    let limitSeconds = 0;
    let timeout: NodeJS.Timeout | undefined;
    let lastProgressAt = 0;
    try {
      const handler = JOB_HANDLERS[job.kind];
      if (!handler) throw new Error(`${job.kind} jobs cannot run in this version`);
      limitSeconds = this.runtime.config.jobs.timeLimitSeconds[job.kind];
      timeout = setTimeout(() => {
        entry.stopReason = 'time_limit';
        entry.controller.abort();
      }, limitSeconds * 1000);
      const result = await handler.run({
        runtime: this.runtime,
        job,
        blob: { path: await this.runtime.blobs.localPath(blob.sha256), sha256: blob.sha256, documentType: blob.documentType },
        pool: this.pool,
        signal: entry.controller.signal,
        reportProgress: (progress) => {
          const now = Date.now();
          if (now - lastProgressAt < PROGRESS_INTERVAL_MS || progress >= 1) return;
          lastProgressAt = now;
          setJobProgress(db, clock, job.id, progress).catch(() => undefined);
        },
      });
      if (entry.stopReason) throw new Error('stopped');
      await transact(db, (trx) => completeJob(trx, clock, job.id, result, owner));
    } catch (error) {
      if (entry.stopReason === 'lease_lost') return; // another process runs it now
      if (entry.stopReason === 'shutdown') {
        await requeueStoppedJob(db, clock, job.id, owner);
        return;
      }
      const message =
        entry.stopReason === 'time_limit'
          ? `the ${job.kind} job exceeded its time limit of ${limitSeconds} s (jobs.timeLimitSeconds.${job.kind}) and was stopped`
          : `the ${job.kind} job failed: ${failureDetail(error, this.runtime.dataDir)}`;
      await transact(db, (trx) => failJob(trx, clock, job.id, message, 'running', owner));
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Stops taking jobs, aborts running ones (they go back to the queue for the next start) and ends the threads. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.leaseTimer);
    clearInterval(this.peekTimer);
    this.unsubscribe();
    await this.leaseWork;
    await this.passes.settled();
    for (const entry of this.running.values()) {
      entry.stopReason = 'shutdown';
      entry.controller.abort();
    }
    await Promise.all([...this.running.values()].map((entry) => entry.done));
    if (this.ownsPool) await this.pool.destroy();
  }
}

export function startScheduler(runtime: Runtime, options: SchedulerOptions = {}): JobScheduler {
  return new JobScheduler(runtime, options);
}
