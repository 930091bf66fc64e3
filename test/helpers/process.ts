import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, onPostgres } from './test-database.js';

// Helpers for end-to-end tests that run the real `obscura` command (bin/obscura.js → dist/) as a child process.

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(PROJECT_ROOT, 'bin', 'obscura.js');
const COMPILED_CLI = path.join(PROJECT_ROOT, 'dist', 'main', 'cli', 'index.js');

/** The e2e tests run the compiled CLI; `npm test` builds first, a bare `npx vitest` does not. */
export function assertBuilt(): void {
  if (!fs.existsSync(COMPILED_CLI)) {
    throw new Error(`${path.relative(PROJECT_ROOT, COMPILED_CLI)} is missing: run \`npm run build:main\` before the end-to-end tests`);
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/** Another user to run as (e.g. to test file permissions while the tests run as root). */
export interface RunAs {
  uid: number;
  gid: number;
}

const databases = new Map<string, string>();

/**
 * With OBSCURA_TEST_DATABASE=postgres, every data directory a command names gets its own fresh database
 * (the same one for every command on that directory: init, then serve, then serve again), passed in
 * OBSCURA_DATABASE_URL. They are left to the throwaway cluster's end: a killed server may still hold them.
 */
export async function databaseUrlFor(dataDir: string): Promise<string | undefined> {
  if (!onPostgres()) return undefined;
  const key = path.resolve(dataDir);
  let url = databases.get(key);
  if (url === undefined) {
    url = (await createTestDatabase()).url;
    databases.set(key, url);
  }
  return url;
}

async function cliEnv(args: string[]): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  const at = args.indexOf('--data-dir');
  const dataDir = at >= 0 ? args[at + 1] : undefined;
  const url = dataDir === undefined ? undefined : await databaseUrlFor(dataDir);
  if (url !== undefined) env.OBSCURA_DATABASE_URL = url;
  return env;
}

async function spawnCli(args: string[], runAs?: RunAs, extraEnv: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  assertBuilt();
  return spawn(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...(await cliEnv(args)), ...extraEnv }, ...runAs });
}

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Runs one CLI command to its end. */
export async function runCli(args: string[], timeoutMs = 20_000): Promise<CliResult> {
  const child = await spawnCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exitOf(child);
  clearTimeout(timer);
  return { ...exit, stdout, stderr };
}

export interface InitialCredentials {
  organization_id: string;
  admin_username: string;
  admin_password: string;
  api_key: string;
}

/** `obscura init --data-dir DIR --json`; fails the test unless it prints exactly one JSON object and exits 0. */
export async function initDataDir(dataDir: string): Promise<InitialCredentials> {
  const result = await runCli(['init', '--data-dir', dataDir, '--json']);
  if (result.code !== 0) throw new Error(`obscura init exited ${result.code}: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`obscura init --json printed ${lines.length} lines:\n${result.stdout}`);
  return JSON.parse(lines[0] ?? '') as InitialCredentials;
}

/** A long-running CLI child (serve, worker) once it has said it is ready. */
export interface CliProcess {
  child: ChildProcess;
  exited: Promise<Exit>;
  output(): { stdout: string; stderr: string };
  /** Sends a signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface ServerProcess extends CliProcess {
  url: string;
}

/**
 * Spawns `obscura ARGS…` and resolves once its stdout matches `ready`; kills it and fails with both outputs if it
 * exits first or stays silent past the timeout.
 */
export async function startCliProcess(
  args: string[],
  ready: RegExp,
  options: { timeoutMs: number; runAs?: RunAs; env?: NodeJS.ProcessEnv },
): Promise<CliProcess & { ready: RegExpExecArray }> {
  const child = await spawnCli(args, options.runAs, options.env);
  const name = `obscura ${args[0] ?? ''}`;
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = exitOf(child);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} was not ready within ${options.timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const found = ready.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${exit.code ?? exit.signal}) before it was ready\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  return {
    ready: match,
    child,
    exited,
    output: () => ({ stdout, stderr }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

const LISTENING = /^listening on (http:\/\/\S+:\d+)$/m;

/** `obscura serve --data-dir DIR --port 0 …`, resolved once it prints `listening on http://HOST:PORT`. */
export async function startServer(dataDir: string, extraArgs: string[] = [], timeoutMs = 20_000, runAs?: RunAs): Promise<ServerProcess> {
  const started = await startCliProcess(['serve', '--data-dir', dataDir, '--port', '0', ...extraArgs], LISTENING, { timeoutMs, ...(runAs && { runAs }) });
  return { ...started, url: started.ready[1] ?? '' };
}

/** A JSON request to the integration API over real HTTP, with a fresh Idempotency-Key on POST/PATCH. */
export async function apiFetch(
  baseUrl: string,
  apiKey: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const mutating = method === 'POST' || method === 'PATCH' || method === 'PUT';
  const response = await fetch(`${baseUrl}/api/v1${urlPath}`, {
    method,
    headers: {
      'x-api-key': apiKey,
      ...(mutating && { 'idempotency-key': randomUUID() }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
}
