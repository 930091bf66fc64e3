import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../../main/jobs/watched-folders/output.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';
import { listTree, paddedPdf, sleep } from '../helpers/watched-folders.js';
import { inspectDatabase, type DatabaseInspector } from '../helpers/inspect-db.js';

// `obscura serve` is SIGKILLed at several points of the pipeline while files arrive, then restarted.
// Whatever moment the kill hits, every file must end up taken exactly once: one document, one case, one job
// per step, one export and one release file, one moved source, nothing lost, nothing doubled.

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Histogram = Record<string, number>;

describe('watched folders: SIGKILL and restart', () => {
  let root: string;
  let dataDir: string;
  let inbox: string;
  let release: string;
  let key: string;
  let server: ServerProcess | undefined;
  let db: DatabaseInspector | undefined;
  const contents = new Map<string, Buffer>();

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-watch-crash-');
    dataDir = path.join(root, 'data');
    inbox = path.join(root, 'inbox');
    release = path.join(root, 'release');
    fs.mkdirSync(inbox);
    key = (await initDataDir(dataDir)).api_key;
    // The folder comes from the config file, as an operator would set it up.
    const config = {
      watchedFolders: [
        {
          name: 'Crash inbox',
          path: inbox,
          target: { mode: 'case_per_file' },
          pipeline: { scan: { enabled: true }, ocr: {}, export: { format: 'pdf', output_path: release, options: { dpi: 72 } } },
          disposition: 'move',
          watch: { stability_ms: 150, rescan_interval_seconds: 0.5 },
        },
      ],
      watchedFolderOptions: { storeConcurrency: 2, pipelineConcurrency: 8 },
      // Six kills in a row can hit the same running job three times, which the default policy fails on
      // purpose (a job that kills the process must not loop); here every kill is the test's.
      jobs: { maxAttempts: 10 },
      exports: { maxAttempts: 10 },
    };
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify(config));
  });
  afterAll(async () => {
    await db?.close();
    await server?.stop('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function database(): Promise<DatabaseInspector> {
    db ??= await inspectDatabase(dataDir);
    return db;
  }

  /** When the current server was started: jobs and exports it started since are live, not left over. */
  let startedAt = '';

  async function histogram(): Promise<Histogram> {
    const rows = await (await database()).all<{ state: string; steps: string }>('SELECT state, steps FROM watched_files');
    const live = async (table: 'jobs' | 'exports', status: string) =>
      (await (await database()).all<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE status = ? AND started_at >= ?`, status, startedAt))[0]?.n ?? 0;
    const counts: Histogram = { 'live:job': await live('jobs', 'running'), 'live:export': await live('exports', 'processing') };
    for (const row of rows) {
      const running = row.state === 'processing' ? (JSON.parse(row.steps) as { name: string; status: string }[]).find((step) => step.status === 'running') : undefined;
      const key = running ? `processing:${running.name === 'export' ? 'export' : 'job'}_running` : row.state;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  async function start(): Promise<ServerProcess> {
    startedAt = new Date().toISOString();
    server = await startServer(dataDir, ['--no-rate-limits']);
    return server;
  }

  /** Polls the database until `condition` holds, then SIGKILLs the server at once. Returns the states seen. */
  async function killWhen(condition: (counts: Histogram) => boolean, what: string, timeoutMs = 30_000): Promise<Histogram> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let counts: Histogram = {};
      try {
        counts = await histogram();
      } catch {
        // The server may be between transactions of its first migration; look again.
      }
      if (condition(counts)) {
        server?.child.kill('SIGKILL');
        expect((await server?.exited)?.signal).toBe('SIGKILL');
        server = undefined;
        return counts;
      }
      if (Date.now() > deadline) throw new Error(`never saw ${what}; last states ${JSON.stringify(counts)}\n${server?.output().stdout ?? ''}`);
      await sleep(3);
    }
  }

  /** Drops files the way copy tools do: written under a partial name, then renamed into place. */
  function drop(prefix: string, count: number): void {
    for (let index = 0; index < count; index += 1) {
      const name = `${prefix}-${String(index).padStart(3, '0')}.pdf`;
      const bytes = paddedPdf(minimalPdf(`${prefix} file ${index}`), 4096 + index * 37);
      contents.set(name, bytes);
      fs.writeFileSync(path.join(inbox, `${name}.part`), bytes);
      fs.renameSync(path.join(inbox, `${name}.part`), path.join(inbox, name));
    }
  }

  const count = (counts: Histogram, ...states: string[]) => states.reduce((sum, state) => sum + (counts[state] ?? 0), 0);

  it('takes every file exactly once, whatever moment the kill hits', async () => {
    drop('first', 16);
    await start();
    const seen: Histogram[] = [];
    // 1. While files are being read into the store.
    seen.push(await killWhen((c) => count(c, 'storing') > 0, 'a file being stored'));
    // More files arrive while the server is down; they are found by the scan at start.
    drop('offline', 4);
    await start();
    // 2. While jobs of the pipeline are running.
    seen.push(await killWhen((c) => count(c, 'processing:job_running') > 0 && count(c, 'live:job') > 0, 'a pipeline step waiting for its running job'));
    await start();
    // 3. While some files are finished and others still on their way.
    seen.push(await killWhen((c) => count(c, 'done') > 0 && count(c, 'processing', 'processing:job_running', 'processing:export_running', 'disposing', 'storing', 'waiting') > 0, 'a half-finished batch'));
    await start();
    // 4. While an export is being made.
    seen.push(await killWhen((c) => count(c, 'live:export') > 0, 'an export being made'));
    drop('late', 4);
    await start();
    // 5. While a source is being moved, once this run has finished files of its own (not what the last kill left).
    const doneBefore = count(await histogram(), 'done');
    seen.push(await killWhen((c) => count(c, 'done') > doneBefore && count(c, 'disposing') > 0, 'a file being disposed of'));
    await start();

    const total = contents.size;
    const deadline = Date.now() + 90_000;
    while (count(await histogram(), 'done') < total) {
      if (Date.now() > deadline || count(await histogram(), 'failed') > 0) {
        const failed = await (await database()).all("SELECT relative_path, error_step, error_message FROM watched_files WHERE state = 'failed'");
        throw new Error(`not all done: ${JSON.stringify(await histogram())} ${JSON.stringify(failed)}\n${server?.output().stdout ?? ''}`);
      }
      await sleep(100);
    }
    // The kills did land mid-way: files were being stored and jobs were running at some kill.
    expect(seen.some((c) => count(c, 'storing') > 0)).toBe(true);
    expect(seen.some((c) => count(c, 'processing:job_running') > 0)).toBe(true);
    expect(seen.some((c) => count(c, 'live:export') > 0)).toBe(true);
    expect(seen.some((c) => count(c, 'disposing') > 0)).toBe(true);

    const sqlite = await database();
    expect(await sqlite.integrityProblems()).toEqual([]);
    const files = (await sqlite.all('SELECT id, relative_path, state, document_id, case_id, sha256, steps, disposed_path FROM watched_files ORDER BY id')) as {
      id: number;
      relative_path: string;
      state: string;
      document_id: number;
      case_id: number;
      sha256: string;
      steps: string;
      disposed_path: string;
    }[];
    // One row per dropped file, all done: none lost, none taken twice.
    expect(files.map((file) => file.relative_path).sort()).toEqual([...contents.keys()].sort());
    expect(new Set(files.map((file) => file.state))).toEqual(new Set(['done']));

    const documents = (await sqlite.all('SELECT id, case_id, sha256, file_name FROM documents')) as { id: number; case_id: number; sha256: string; file_name: string }[];
    expect(documents).toHaveLength(total);
    const cases = (await sqlite.all('SELECT id, name FROM cases')) as { id: number; name: string }[];
    expect(cases).toHaveLength(total);
    for (const file of files) {
      const bytes = contents.get(file.relative_path) ?? Buffer.alloc(0);
      const document = documents.find((row) => row.id === file.document_id);
      expect(document, file.relative_path).toMatchObject({ sha256: sha256(bytes), file_name: file.relative_path, case_id: file.case_id });
      expect(cases.find((row) => row.id === file.case_id)?.name).toBe(file.relative_path.replace(/\.pdf$/, ''));
      // The blob holds the bytes.
      expect(sha256(fs.readFileSync(path.join(dataDir, 'blobs', 'sha256', file.sha256.slice(0, 2), file.sha256)))).toBe(file.sha256);
      // One job per step, each completed, and they are the ones recorded.
      const jobs = (await sqlite.all('SELECT id, kind, status FROM jobs WHERE document_id = ? ORDER BY id', file.document_id)) as { id: number; kind: string; status: string }[];
      const steps = (JSON.parse(file.steps) as { name: string; status: string; job_id: string }[]).filter((step) => step.name === 'scan' || step.name === 'ocr');
      expect(jobs.map((job) => [String(job.id), job.kind, job.status])).toEqual(steps.map((step) => [step.job_id, step.name, 'completed']));
    }
    // One release file per file, the bytes of its one export.
    expect(listTree(release)).toEqual([...contents.keys()].map((name) => name.replace(/\.pdf$/, '.redacted.pdf')).sort());
    const exports = (await sqlite.all('SELECT id, status, filters, result_sha256 FROM exports')) as { id: number; status: string; filters: string; result_sha256: string }[];
    expect(exports).toHaveLength(total);
    for (const file of files) {
      const step = (JSON.parse(file.steps) as { name: string; job_id: string }[]).find((entry) => entry.name === 'export');
      const made = exports.find((row) => String(row.id) === step?.job_id);
      expect(made?.status).toBe('completed');
      expect((JSON.parse(made?.filters ?? '{}') as { document_ids: string[] }).document_ids).toEqual([String(file.document_id)]);
      expect(sha256(fs.readFileSync(path.join(release, file.relative_path.replace(/\.pdf$/, '.redacted.pdf'))))).toBe(made?.result_sha256);
    }
    // Each source was moved once, bytes intact; nothing is left behind, no temporary files anywhere.
    const day = localDate(new Date());
    expect(listTree(inbox)).toEqual([...contents.keys()].map((name) => `processed/${day}/${name}`).sort());
    for (const [name, bytes] of contents) expect(fs.readFileSync(path.join(inbox, 'processed', day, name))).toEqual(bytes);
    expect(fs.readdirSync(path.join(dataDir, 'blobs', 'tmp'))).toEqual([]);
    const events = await sqlite.all("SELECT type, count(*) AS n FROM outbox_events WHERE type IN ('document.created', 'watched_file.completed') GROUP BY type ORDER BY type");
    expect(events).toEqual([
      { type: 'document.created', n: total },
      { type: 'watched_file.completed', n: total },
    ]);

    // The folder is the config file's: visible through the API, but not changeable there.
    const base = server?.url ?? '';
    const listed = (await apiFetch(base, key, 'GET', '/watched-folders')).json as { data: { id: string; origin: string }[] };
    expect(listed.data.map((folder) => folder.origin)).toEqual(['config']);
    const folderId = listed.data[0]?.id ?? '';
    expect((await apiFetch(base, key, 'PATCH', `/watched-folders/${folderId}`, { enabled: false })).status).toBe(409);
    const status = (await apiFetch(base, key, 'GET', `/watched-folders/${folderId}/status`)).json as { data: { counts: Record<string, number> } };
    expect(status.data.counts).toMatchObject({ done: total, failed: 0, waiting: 0, in_progress: 0, stored: total });
    expect(await server?.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  }, 240_000);
});
