import { onExportChanged, onJobSettled } from '../../db/change-signals.js';
import type { Db } from '../../db/connection.js';
import { findExportById } from '../../db/queries/exports.js';
import { listJobsByIds } from '../../db/queries/jobs.js';
import type { ExportRow, JobRow } from '../../db/schema.js';

/** Backstop for a settle signal that was missed (e.g. a row changed by another tool): one batched read. */
const POLL_INTERVAL_MS = 1_000;

interface Waiter<T> {
  resolve(row: T): void;
  reject(error: unknown): void;
}

class WaitList<T> {
  readonly waiters = new Map<number, Set<Waiter<T>>>();

  add(id: number, waiter: Waiter<T>): void {
    const set = this.waiters.get(id) ?? new Set();
    set.add(waiter);
    this.waiters.set(id, set);
  }

  remove(id: number, waiter: Waiter<T>): void {
    const set = this.waiters.get(id);
    set?.delete(waiter);
    if (set?.size === 0) this.waiters.delete(id);
  }

  settle(id: number, row: T): void {
    const set = this.waiters.get(id);
    this.waiters.delete(id);
    for (const waiter of set ?? []) waiter.resolve(row);
  }
}

const JOB_FINAL: readonly JobRow['status'][] = ['completed', 'failed'];
const EXPORT_FINAL: readonly ExportRow['status'][] = ['completed', 'failed', 'cancelled'];

/**
 * Lets pipelines wait for jobs and exports to settle by observing their rows: woken by the change signals
 * their query modules send, with a slow batched poll as a backstop. No pipeline polls on its own.
 */
export class SettleWaiter {
  private readonly jobs = new WaitList<JobRow>();
  private readonly exports = new WaitList<ExportRow>();
  private readonly unsubscribe: (() => void)[];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly db: Db) {
    this.unsubscribe = [
      onJobSettled((id) => {
        if (this.jobs.waiters.has(id)) setImmediate(() => void this.checkJobs([id]));
      }),
      onExportChanged((id) => {
        if (this.exports.waiters.has(id)) setImmediate(() => void this.checkExports([id]));
      }),
    ];
    this.timer = setInterval(() => {
      void this.checkJobs([...this.jobs.waiters.keys()]);
      void this.checkExports([...this.exports.waiters.keys()]);
    }, POLL_INTERVAL_MS);
    this.timer.unref();
  }

  waitForJob(id: number, signal: AbortSignal): Promise<JobRow> {
    return this.wait(this.jobs, id, signal, () => this.checkJobs([id]));
  }

  waitForExport(id: number, signal: AbortSignal): Promise<ExportRow> {
    return this.wait(this.exports, id, signal, () => this.checkExports([id]));
  }

  private wait<T>(list: WaitList<T>, id: number, signal: AbortSignal, check: () => Promise<void>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        list.remove(id, waiter);
        reject(signal.reason);
      };
      const waiter: Waiter<T> = {
        resolve: (row) => {
          signal.removeEventListener('abort', onAbort);
          resolve(row);
        },
        reject,
      };
      signal.addEventListener('abort', onAbort, { once: true });
      list.add(id, waiter);
      void check();
    });
  }

  private async checkJobs(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      for (const row of await listJobsByIds(this.db, ids)) if (JOB_FINAL.includes(row.status)) this.jobs.settle(row.id, row);
    } catch {
      // Database closing: the waiters are aborted by their runners.
    }
  }

  private async checkExports(ids: number[]): Promise<void> {
    try {
      for (const id of ids) {
        const row = await findExportById(this.db, id);
        if (row && EXPORT_FINAL.includes(row.status)) this.exports.settle(id, row);
      }
    } catch {
      // As above.
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }
}
