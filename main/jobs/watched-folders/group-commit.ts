import type { Db } from '../../db/connection.js';
import type { Executor } from '../../db/queries/executor.js';

interface Pending {
  work(trx: Executor): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Enough to amortise a commit; small enough that one slow batch does not stall the API for long. */
const MAX_BATCH = 256;

/**
 * Group commit: transitions requested in the same turn of the event loop run one after another in one
 * SQLite transaction, so a thousand files dropped at once cost a handful of fsyncs instead of thousands.
 * Each caller still learns its own outcome only after the commit, so nothing proceeds on an uncommitted
 * step. When a batch fails, its members run again one per transaction, so one file's error is its own.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: Db) {}

  run<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const results = await this.db.transaction().execute(async (trx) => {
          const out: unknown[] = [];
          for (const item of batch) out.push(await item.work(trx));
          return out;
        });
        batch.forEach((item, index) => item.resolve(results[index]));
      } catch (error) {
        if (batch.length === 1) batch[0]?.reject(error);
        else await this.oneByOne(batch);
      }
    }
    this.flushing = false;
  }

  private async oneByOne(batch: Pending[]): Promise<void> {
    for (const item of batch) {
      try {
        item.resolve(await this.db.transaction().execute((trx) => item.work(trx)));
      } catch (error) {
        item.reject(error);
      }
    }
  }
}
