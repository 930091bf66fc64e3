import type { ScanOptions, ScanResult } from './schemas/jobs.js';

// Messages between the scheduler and the worker threads. Plain data only (structured clone); a worker
// never opens the database, so everything it needs travels in the task.

export interface ScanTask {
  kind: 'scan';
  jobId: number;
  /** Absolute path of the stored blob. */
  blobPath: string;
  sha256: string;
  options: ScanOptions;
}

/** Every task a worker runs; later kinds join this union. */
export type WorkerTask = ScanTask;

export interface ScanTaskResult {
  kind: 'scan';
  result: ScanResult;
}

export type WorkerTaskResult = ScanTaskResult;

/** The result type that answers a task of kind K. */
export type ResultFor<K extends WorkerTask['kind']> = Extract<WorkerTaskResult, { kind: K }>;

/** Posted by a worker on the task's progress port while it runs. */
export interface WorkerProgress {
  type: 'progress';
  jobId: number;
  /** 0..1 */
  progress: number;
}

/** What piscina hands the worker: the task and a port for progress (transferred, not cloned). */
export interface WorkerEnvelope {
  task: WorkerTask;
  progressPort: { postMessage(message: WorkerProgress): void; close(): void };
}
