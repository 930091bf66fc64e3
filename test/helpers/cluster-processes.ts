import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { assertBuilt, databaseUrlFor, PROJECT_ROOT, type Exit } from './process.js';

// `obscura worker` as a child process, for tests with several processes on one database.

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<Exit>;
  output(): { stdout: string; stderr: string };
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const READY = /^worker running on /m;

export async function startWorkerProcess(dataDir: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<WorkerProcess> {
  assertBuilt();
  const url = await databaseUrlFor(dataDir);
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'obscura.js'), 'worker', '--data-dir', dataDir], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The data directory's own database on a PostgreSQL run (the one init and serve of this directory use).
    env: { ...process.env, NO_COLOR: '1', ...(url !== undefined && { OBSCURA_DATABASE_URL: url }), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`obscura worker did not start within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (READY.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`obscura worker exited (${exit.code ?? exit.signal}) before it started\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
