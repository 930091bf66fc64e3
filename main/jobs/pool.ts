import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ResultFor, WorkerEnvelope, WorkerProgress, WorkerTask } from '../common/worker-messages.js';

/**
 * One thread per core: OCR and burn-in must use every core to keep up with native tools, and the main
 * process (HTTP, SQLite writes) needs little CPU while they run.
 */
export function defaultPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * The compiled worker entry. From dist/main/jobs/pool.js it is ../../worker/index.js; when main/ runs from
 * sources (vitest), the same relative path does not exist and the build's dist/worker/index.js is used.
 */
export function workerEntry(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../worker/index.js'), path.resolve(here, '../../dist/worker/index.js')];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`worker entry not found (looked at ${candidates.join(', ')}); run npm run build:main`);
  return found;
}

export interface RunOptions {
  signal: AbortSignal;
  onProgress: (progress: WorkerProgress) => void;
}

/** The worker threads; typed per task kind. Aborting a running task makes piscina replace its thread. */
export class WorkerPool {
  private readonly piscina: Piscina<WorkerEnvelope, unknown>;

  constructor(readonly size = defaultPoolSize()) {
    // Threads start on demand and leave when idle, so an instance that runs no jobs holds none. They run the
    // compiled worker and take none of this process's flags: a loader such as tsx (tests, benchmarks) would
    // otherwise start in every thread and its source-map support alone grows each thread's heap fourfold.
    this.piscina = new Piscina({ filename: workerEntry(), execArgv: [], minThreads: 0, maxThreads: size, idleTimeout: 30_000 });
  }

  async run<T extends WorkerTask>(task: T, options: RunOptions): Promise<ResultFor<T['kind']>> {
    const channel = new MessageChannel();
    channel.port1.on('message', (message: WorkerProgress) => options.onProgress(message));
    try {
      const envelope: WorkerEnvelope = { task, progressPort: channel.port2 };
      const result = (await this.piscina.run(envelope, { transferList: [channel.port2], signal: options.signal })) as ResultFor<T['kind']>;
      if (result.kind !== task.kind) throw new Error(`worker answered a ${task.kind} task with a ${result.kind} result`);
      return result;
    } finally {
      channel.port1.close();
    }
  }

  /** Stops every thread; running tasks are rejected. */
  destroy(): Promise<void> {
    return this.piscina.destroy();
  }
}
