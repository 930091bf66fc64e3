import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Servers under test run in their own Node process so the load generator (autocannon, in this process)
 * does not share their event loop; with --cpu-prof the profile then holds the server's work only.
 *
 * Protocol: the child sends { type: 'ready', ...info } once listening; the parent sends { type: 'stop' }
 * and the child closes everything and exits 0.
 */
export interface RunningTarget<Info> {
  info: Info;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** When set, the child runs under --cpu-prof writing into this directory (one file per thread). */
  profileDir: string | null;
  /** Passed to the child as JSON in argv[2]. */
  input?: unknown;
  timeoutMs?: number;
}

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function startTarget<Info>(script: string, options: TargetOptions): Promise<RunningTarget<Info>> {
  const execArgv = ['--import', 'tsx'];
  if (options.profileDir) {
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.profileDir}`);
  }
  const child = fork(path.join(benchDir, script), [JSON.stringify(options.input ?? null)], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not become ready`));
    }, options.timeoutMs ?? 30_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    };
    child.once('exit', onExit);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('message', (message: { type?: string } & Record<string, unknown>) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      child.off('exit', onExit);
      const { type: _type, ...info } = message;
      resolve({ info: info as Info, stop: () => stopChild(child) });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`benchmark target exited with ${signal ?? code}`));
    });
    child.send({ type: 'stop' });
  });
}

/** In a target process: announce readiness and run `stop` when the parent asks, then exit. */
export function serveTarget(info: Record<string, unknown>, stop: () => Promise<void>): void {
  if (!process.send) throw new Error('benchmark targets must be started by bench/run.ts (no IPC channel)');
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  process.send({ type: 'ready', ...info });
}

/**
 * The main thread's profile among those --cpu-prof wrote to `dir` (tsx's loader runs in a worker thread
 * that writes its own). Default names are CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile.
 */
export function mainThreadProfile(dir: string): string | null {
  if (!fs.existsSync(dir)) return null;
  const file = fs.readdirSync(dir).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  return file ? path.join(dir, file) : null;
}

export function targetInput<T>(): T {
  return JSON.parse(process.argv[2] ?? 'null') as T;
}
