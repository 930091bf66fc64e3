import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fmt, fmtInt } from './lib/format.js';
import { startBenchPostgres } from './lib/postgres.js';
import type { Benchmark, BenchReport, BenchSettings } from './types.js';

// Job throughput of the shipped build as an office runs it: one `obscura serve` taking the requests and one
// `obscura worker` beside it, on SQLite (one data directory) and on PostgreSQL. BENCH_JOBS scan jobs
// (default 500) of a one-page PDF are queued over HTTP as fast as 16 clients can; jobs/s is the count over
// the time from the first request to the last completion.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'bin', 'obscura.js');

interface Backend {
  name: string;
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  enqueueP99: number;
  enqueueRps: number;
  /** Jobs finished by the server and by the worker (lease_owner keeps which process did). */
  byServer: number;
  byWorker: number;
}

function start(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (err += text));
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const match = ready.exec(out);
      if (match) resolve({ child, match });
    });
    child.once('exit', (code) => reject(new Error(`obscura ${args[0]} exited ${code}: ${err}`)));
  });
}

async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Job throughput', { x: 72, y: 700, size: 24, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

async function api(base: string, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'x-api-key': key, 'idempotency-key': randomUUID(), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, data: text ? ((JSON.parse(text) as { data: Record<string, unknown> }).data ?? {}) : {} };
}

async function runBackend(name: string, databaseUrl: string | null, jobs: number, settings: BenchSettings): Promise<Backend> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-jobs-'));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  if (databaseUrl) env.OBSCURA_DATABASE_URL = databaseUrl;
  const children: ChildProcess[] = [];
  const handle: { sqlite: SQLite.Database | null } = { sqlite: null };
  const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  try {
    const init = await start(['init', '--data-dir', dataDir, '--json'], env, /^(\{.*\})$/m);
    const key = (JSON.parse(init.match[1] ?? '{}') as { api_key: string }).api_key;
    const server = await start(['serve', '--data-dir', dataDir, '--port', '0', '--no-rate-limits'], env, /^listening on (http:\/\/\S+:\d+)$/m);
    children.push(server.child);
    const worker = await start(['worker', '--data-dir', dataDir], env, /^worker running on .*\(pid (\d+);/m);
    children.push(worker.child);
    const base = server.match[1] ?? '';
    await api(base, key, 'PATCH', '/processing-settings', { auto_process: false });
    const caseId = (await api(base, key, 'POST', '/cases', { name: 'Job throughput' })).data.id as string;
    const pdf = await onePagePdf();
    const session = (await api(base, key, 'POST', `/cases/${caseId}/upload-sessions`, { files: [{ name: 'one.pdf', size: pdf.length }] })).data as { id: string; files: { upload_url: string }[] };
    await fetch(session.files[0]?.upload_url ?? '', { method: 'PUT', body: pdf });
    const documentId = ((await api(base, key, 'POST', `/upload-sessions/${session.id}/complete`)).data as { documents: { id: string }[] }).documents[0]?.id ?? '';

    await client?.connect();
    const count = async (): Promise<{ done: number; byWorker: number }> => {
      const text = `SELECT count(*) AS done, sum(CASE WHEN lease_owner LIKE '%/${worker.match[1] ?? ''}/%' THEN 1 ELSE 0 END) AS by_worker FROM jobs WHERE status IN ('completed', 'failed')`;
      const row = client ? (await client.query(text)).rows[0] : (handle.sqlite ??= new SQLite(path.join(dataDir, 'obscura.db'), { readonly: true })).prepare(text).get();
      const typed = row as { done: number | string; by_worker: number | string | null };
      return { done: Number(typed.done), byWorker: Number(typed.by_worker ?? 0) };
    };
    settings.log(`  ${name}: queuing ${jobs} scan jobs`);
    const latencies: number[] = [];
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < jobs) {
          next += 1;
          const sent = performance.now();
          const answer = await api(base, key, 'POST', `/documents/${documentId}/scan-jobs`, {});
          if (answer.status !== 202) throw new Error(`queuing a job answered ${answer.status}`);
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const queuedIn = (performance.now() - started) / 1000;
    let state = await count();
    while (state.done < jobs) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      state = await count();
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      name,
      jobs,
      seconds,
      jobsPerSecond: jobs / seconds,
      enqueueP99: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
      enqueueRps: jobs / queuedIn,
      byServer: jobs - state.byWorker,
      byWorker: state.byWorker,
    };
  } finally {
    handle.sqlite?.close();
    await client?.end().catch(() => undefined);
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const jobsBench: Benchmark = {
  name: 'jobs',
  description: 'scan jobs per second through one `obscura serve` and one `obscura worker`, on SQLite and on PostgreSQL (issue 21)',
  async run(settings): Promise<BenchReport> {
    const jobs = Number(process.env.BENCH_JOBS ?? 500);
    const results = [await runBackend('SQLite', null, jobs, settings)];
    const cluster = await startBenchPostgres(settings.log);
    let skipped: string | null = null;
    if ('skipped' in cluster) skipped = cluster.skipped;
    else {
      try {
        results.push(await runBackend('PostgreSQL', await cluster.database('bench_jobs'), jobs, settings));
      } finally {
        cluster.stop();
      }
    }
    return {
      title: `Job throughput: ${jobs} scan jobs, serve + worker`,
      table: [
        ['database', 'jobs/s', 'seconds', 'enqueue req/s', 'enqueue p99 ms', 'by serve', 'by worker'],
        ...results.map((result) => [result.name, fmt(result.jobsPerSecond, 1), fmt(result.seconds, 1), fmtInt(result.enqueueRps), fmt(result.enqueueP99), String(result.byServer), String(result.byWorker)]),
      ],
      notes: [
        'A scan job of a one-page PDF is the cheapest kind: the numbers are the queue\'s cost (claim, lease, settle, event, audit) more than the work.',
        skipped ? `PostgreSQL column skipped: ${skipped}` : 'PostgreSQL: a throwaway local cluster with fsync and synchronous commit on; SQLite: WAL with synchronous=FULL.',
      ],
      checks: results.map((result) => ({ name: `${result.name}: serve and worker both ran jobs`, pass: result.byServer > 0 && result.byWorker > 0, detail: `${result.byServer} / ${result.byWorker}` })),
      data: results,
    };
  },
};
