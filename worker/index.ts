import type { WorkerEnvelope, WorkerTaskResult } from '../main/common/worker-messages.js';
import { scan } from './scan.js';

/**
 * Piscina's entry: runs one task and returns its result. A throw rejects only this task; a task that runs
 * past its limit is aborted by the scheduler and piscina replaces this thread. Never opens the database.
 */
export default async function runTask({ task, progressPort }: WorkerEnvelope): Promise<WorkerTaskResult> {
  try {
    switch (task.kind) {
      case 'scan':
        return { kind: 'scan', result: await scan(task, (progress) => progressPort.postMessage(progress)) };
    }
  } finally {
    progressPort.close();
  }
}
