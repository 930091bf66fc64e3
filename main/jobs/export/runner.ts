import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { onExportChanged } from '../../db/change-signals.js';
import { transact } from '../../db/transaction.js';
import { findExportById, renewExportLeases } from '../../db/queries/exports.js';
import { leaseExpiry, processIdentity, type LeaseTerms } from '../../cluster/identity.js';
import type { ExportRow } from '../../db/schema.js';
import type { Runtime } from '../../runtime.js';
import type { StagedBlob } from '../../services/blob-store.js';
import { ExportNotPossible, gatherExportMaterial } from '../../services/export-material.js';
import {
  claimNextExport,
  completeExport,
  failExport,
  recoverInterruptedExports,
  requeueStoppedExport,
  setExportProgress,
} from '../../services/exports.js';
import type { WorkerPool } from '../pool.js';
import { CoalescedPass } from '../coalesced-pass.js';
import { failureDetail } from '../failure-detail.js';
import { buildExport } from './build.js';
import { removeWorkFiles } from './context.js';

/** Progress is written at most this often per export. */
const PROGRESS_INTERVAL_MS = 250;
/** A fallback sweep for pending exports and cancellations the signals did not deliver. */
const POLL_INTERVAL_MS = 1_000;

export interface ExportRunnerOptions {
  /** Exports processed at once (default: config exports.concurrency). */
  concurrency?: number;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  /** Why the work was aborted: the export's outcome depends on it. */
  stopReason: 'cancelled' | 'time_limit' | 'shutdown' | null;
}

/**
 * Takes pending exports oldest first and builds them: the case record is read here (the only database
 * reader and writer), CPU work runs on the shared worker pool, and the verified file is committed to the
 * blob store before the export completes. A cancellation aborts the running worker tasks.
 */
export class ExportRunner {
  private readonly running = new Map<number, Running>();
  private readonly concurrency: number;
  private stopped = false;
  private readonly passes = new CoalescedPass(() => this.fill(), () => this.stopped, 'export runner failed to claim exports');
  private readonly timer: NodeJS.Timeout;
  private readonly leaseTimer: NodeJS.Timeout;
  private leaseWork: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;
  private readonly lease: LeaseTerms;

  constructor(
    private readonly runtime: Runtime,
    private readonly pool: WorkerPool,
    options: ExportRunnerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? runtime.config.exports.concurrency;
    this.lease = { owner: processIdentity(), seconds: runtime.config.leases.seconds };
    // Renewed at a third of the lease; lapsed leases of other processes are taken back on the same beat.
    this.leaseTimer = setInterval(() => {
      this.leaseWork = this.leaseWork.then(() => this.tendLeases()).catch((error: unknown) => console.error('export runner could not renew its leases:', error));
    }, (this.lease.seconds * 1000) / 3);
    this.leaseTimer.unref();
    this.unsubscribe = onExportChanged((id) => setImmediate(() => this.changed(id)));
    this.timer = setInterval(() => {
      this.wake();
      for (const id of this.running.keys()) this.changed(id);
    }, POLL_INTERVAL_MS);
    this.timer.unref();
    // Exports a dead process left processing were put back to pending (or failed) when the runtime opened.
    this.wake();
  }

  /** Resolves once the first claim pass has run. */
  async started(): Promise<void> {
    await this.passes.settled();
  }

  private async tendLeases(): Promise<void> {
    const { db, clock, config } = this.runtime;
    if (this.stopped) return;
    await renewExportLeases(db, this.lease.owner, leaseExpiry(this.lease.seconds));
    const recovered = await transact(db, (trx) => recoverInterruptedExports(trx, clock, config.exports.maxAttempts));
    if (recovered.requeued > 0) this.wake();
  }

  private changed(id: number): void {
    const entry = this.running.get(id);
    if (!entry) return this.wake();
    findExportById(this.runtime.db, id)
      .then((row) => {
        // Cancelled, or the lease lapsed and another process builds it now: this attempt writes nothing.
        if ((row?.status !== 'processing' || row.lease_owner !== this.lease.owner) && entry.stopReason === null) {
          entry.stopReason = 'cancelled';
          entry.controller.abort();
        }
      })
      .catch(() => undefined);
  }

  /** Fills free slots with pending exports; concurrent calls coalesce into one more pass. */
  wake(): void {
    this.passes.wake();
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.concurrency) {
      // Not transact(): the claim is one SKIP LOCKED statement, exclusive under plain READ COMMITTED.
      const row = await this.runtime.db.transaction().execute((trx) => claimNextExport(trx, this.runtime.clock, this.lease));
      if (!row) return;
      const entry: Running = { controller: new AbortController(), done: Promise.resolve(), stopReason: null };
      this.running.set(row.id, entry);
      entry.done = this.execute(row, entry)
        .catch((error: unknown) => console.error(`export ${row.id} could not be settled:`, error))
        .finally(() => {
          this.running.delete(row.id);
          this.wake();
        });
    }
  }

  private async execute(row: ExportRow, entry: Running): Promise<void> {
    const { db, clock, blobs, config } = this.runtime;
    const workPrefix = path.join(blobs.tempDir, `export-${row.id}-${randomUUID().slice(0, 8)}`);
    const limitSeconds = config.exports.timeLimitSeconds;
    const timeout = setTimeout(() => {
      if (entry.stopReason !== null) return;
      entry.stopReason = 'time_limit';
      entry.controller.abort();
    }, limitSeconds * 1000);
    let lastProgressAt = 0;
    let staged: StagedBlob | null = null;
    try {
      const material = await transact(db, (trx) => gatherExportMaterial(trx, row));
      // Sources as local files before any task names them (a bucket-backed store copies them here).
      for (const document of material.documents) await blobs.localPath(document.row.sha256);
      const built = await buildExport(
        {
          runtime: this.runtime,
          pool: this.pool,
          signal: entry.controller.signal,
          workPrefix,
          progress: (fraction) => {
            const now = Date.now();
            if (now - lastProgressAt < PROGRESS_INTERVAL_MS || fraction >= 1) return;
            lastProgressAt = now;
            setExportProgress(db, clock, row.id, fraction).catch(() => undefined);
          },
        },
        material,
      );
      staged = built.staged;
      if (entry.stopReason) throw new Error('stopped');
      // The file is durable at its address before any row names it.
      await blobs.commit(built.staged);
      staged = null;
      await transact(db, (trx) =>
        completeExport(trx, clock, row.id, { sha256: built.staged.sha256, size: built.staged.size, mediaType: built.mediaType, fileName: built.fileName }, built.summary, built.release, this.lease.owner),
      );
    } catch (error) {
      if (staged) await blobs.discard(staged).catch(() => undefined);
      if (entry.stopReason === 'shutdown') await requeueStoppedExport(db, clock, row.id, this.lease.owner);
      else if (entry.stopReason !== 'cancelled') {
        const message =
          entry.stopReason === 'time_limit'
            ? `the export exceeded its time limit of ${limitSeconds} s (exports.timeLimitSeconds) and was stopped`
            : error instanceof ExportNotPossible
              ? `the export cannot run: ${error.message}`
              : `the export failed: ${failureDetail(error, this.runtime.dataDir)}`;
        await transact(db, (trx) => failExport(trx, clock, row.id, message, this.lease.owner));
      }
    } finally {
      clearTimeout(timeout);
      await removeWorkFiles(workPrefix);
    }
  }

  /** Stops taking exports; running ones are aborted and go back to pending for the next start. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.leaseTimer);
    await this.leaseWork;
    this.unsubscribe();
    await this.passes.settled();
    for (const entry of this.running.values()) {
      if (entry.stopReason === null) entry.stopReason = 'shutdown';
      entry.controller.abort();
    }
    await Promise.all([...this.running.values()].map((entry) => entry.done));
  }
}

export function startExportRunner(runtime: Runtime, pool: WorkerPool, options: ExportRunnerOptions = {}): ExportRunner {
  return new ExportRunner(runtime, pool, options);
}
