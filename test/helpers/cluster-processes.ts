import { startCliProcess, type CliProcess } from './process.js';

// `obscura worker` as a child process, for tests with several processes on one database. On a PostgreSQL run
// it gets the data directory's own database, the one init and serve of this directory use.

export type WorkerProcess = CliProcess;

const READY = /^worker running on /m;

export async function startWorkerProcess(dataDir: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<WorkerProcess> {
  return startCliProcess(['worker', '--data-dir', dataDir], READY, { timeoutMs, env });
}
