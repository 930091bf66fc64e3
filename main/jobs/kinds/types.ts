import type { JobRow } from '../../db/schema.js';
import type { Runtime } from '../../runtime.js';
import type { WorkerPool } from '../pool.js';

/** What a kind's handler gets for one attempt of one job. */
export interface JobRun {
  runtime: Runtime;
  job: JobRow;
  /** The job's document: its stored bytes and detected type. */
  blob: { path: string; sha256: string; documentType: string };
  /** Shared worker threads; a handler may run several tasks at once (e.g. OCR pages), piscina queues them. */
  pool: WorkerPool;
  /** Aborted on time limit or shutdown; pass it to every pool.run so the threads are replaced. */
  signal: AbortSignal;
  /** 0..1; written to the job row at most a few times a second. */
  reportProgress(fraction: number): void;
}

/**
 * One per job kind. `run` does the kind's work (CPU work on the pool, never in the main thread), may write
 * partial results to the database as it goes (so a restart can skip finished parts), and returns the job's
 * `result` object, stored when the job completes.
 */
export interface JobKindHandler {
  run(run: JobRun): Promise<object>;
}
