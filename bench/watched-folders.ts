import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { DEFAULT_PATTERNS } from '../main/common/schemas/watched-folders.js';
import { FolderLayout } from '../main/jobs/watched-folders/layout.js';
import { FolderWatcher } from '../main/jobs/watched-folders/watcher.js';
import { fmt, fmtInt } from './lib/format.js';
import type { Benchmark, BenchReport, BenchSettings } from './types.js';

// Issue 8: files dropped into watched folders must all be taken, once, quickly, without running the
// machine out of memory or file handles. Runs the compiled `obscura serve` (dist/) as a child process,
// with the folders defined in its config.json, and drives it only through the file system and the API.
//
// BENCH_FOLDER_FILES (default 1000), BENCH_FOLDER_OCR_FILES (default 100), BENCH_FOLDER_TREE (default 10000).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'bin', 'obscura.js');

function envCount(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** A one-page PDF with a line of text, unique by its text (so every file is new content). */
function smallPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function runCli(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`obscura ${args.join(' ')} exited ${code}`);
  return stdout;
}

interface Server {
  child: ChildProcess;
  url: string;
  /** Log lines of the server (one or two per file). */
  lines: string[];
  stop(): Promise<number | null>;
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--no-rate-limits'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let pending = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('obscura serve did not start')), 60_000);
    child.once('exit', (code) => reject(new Error(`obscura serve exited ${code}`)));
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      pending += text;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      }
    });
  });
  return {
    child,
    url,
    lines,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** VmHWM (peak resident set) and VmRSS of a process, in MiB; worker threads are part of it. */
function memoryOf(pid: number): { peak: number; rss: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peak: kib('VmHWM') / 1024, rss: kib('VmRSS') / 1024 };
}

interface Counts {
  waiting: number;
  in_progress: number;
  done: number;
  failed: number;
  vanished: number;
  stored: number;
  duplicates: number;
}

async function api<T>(server: Server, key: string, urlPath: string): Promise<T> {
  const response = await fetch(`${server.url}/api/v1${urlPath}`, { headers: { 'x-api-key': key } });
  if (!response.ok) throw new Error(`GET ${urlPath}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

interface DropResult {
  files: number;
  storedSeconds: number;
  doneSeconds: number;
  failed: number;
  lost: number;
  documents: number;
  processed: number;
  leftInInbox: number;
}

/**
 * Renames `count` files into the folder at once (prepared beside it, so the rename is instant) and
 * follows the folder's status until every file is stored, then finished.
 */
async function dropAndFollow(settings: BenchSettings, server: Server, key: string, folderId: string, inbox: string, staging: string, count: number, label: string): Promise<DropResult> {
  fs.mkdirSync(staging, { recursive: true });
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = `${label}-${String(index).padStart(5, '0')}.pdf`;
    fs.writeFileSync(path.join(staging, name), smallPdf(`${label} bench file ${index} ${Date.now()}`));
    names.push(name);
  }
  const started = performance.now();
  for (const name of names) fs.renameSync(path.join(staging, name), path.join(inbox, name));
  let storedAt = Number.NaN;
  let counts: Counts;
  const deadline = Date.now() + 30 * 60_000;
  let lastLog = 0;
  for (;;) {
    counts = (await api<{ counts: Counts }>(server, key, `/watched-folders/${folderId}/status`)).counts;
    const now = performance.now();
    if (Number.isNaN(storedAt) && counts.stored + counts.failed >= count) storedAt = now;
    if (counts.waiting === 0 && counts.in_progress === 0 && counts.done + counts.failed + counts.vanished >= count) break;
    if (Date.now() > deadline) break;
    if (now - lastLog > 5000) {
      lastLog = now;
      settings.log(`    ${label}: ${JSON.stringify(counts)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const doneAt = performance.now();
  const processed = fs.existsSync(path.join(inbox, 'processed'))
    ? fs.readdirSync(path.join(inbox, 'processed'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.startsWith(`${label}-`)).length
    : 0;
  const leftInInbox = fs.readdirSync(inbox).filter((name) => name.startsWith(`${label}-`)).length;
  return {
    files: count,
    storedSeconds: (storedAt - started) / 1000,
    doneSeconds: (doneAt - started) / 1000,
    failed: counts.failed,
    // Lost: dropped but neither finished nor failed (nor recorded at all).
    lost: count - counts.done - counts.failed,
    documents: 0,
    processed,
    leftInInbox,
  };
}

function countDocuments(dataDir: string, prefix: string): number {
  const db = new SQLite(path.join(dataDir, 'obscura.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT count(DISTINCT sha256) AS n FROM documents WHERE file_name LIKE ?').get(`${prefix}-%`) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

interface TreeResult {
  files: number;
  directories: number;
  readySeconds: number;
  sighted: number;
  walkSeconds: number;
  fdsBefore: number;
  fdsWatching: number;
  fdsAfter: number;
  fdLimit: number;
  inotifyWatches: number;
  eventLatencyMs: number;
  rssMiB: number;
}

function openFds(): string[] {
  return fs.readdirSync('/proc/self/fd');
}

/** inotify watches held by this process (one inotify instance holds them all; each costs no descriptor). */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of openFds()) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
      watches += fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  return watches;
}

function fdLimit(): number {
  const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((entry) => entry.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? Number.NaN);
}

/** The watcher of a folder (chokidar plus the walk) over a tree of `count` matching files, in this process. */
async function watchTree(settings: BenchSettings, root: string, count: number): Promise<TreeResult> {
  const perDir = 100;
  const directories = Math.ceil(count / perDir);
  const bytes = smallPdf('tree file');
  for (let dir = 0; dir < directories; dir += 1) {
    const sub = path.join(root, `box-${String(Math.floor(dir / 10)).padStart(3, '0')}`, `folder-${String(dir).padStart(4, '0')}`);
    fs.mkdirSync(sub, { recursive: true });
    for (let index = 0; index < perDir && dir * perDir + index < count; index += 1) fs.writeFileSync(path.join(sub, `scan-${index}.pdf`), bytes);
  }
  settings.log(`  tree: ${count} files in ${directories} folders written; watching`);
  const fdsBefore = openFds().length;
  const sighted = new Set<string>();
  const errors: string[] = [];
  let lastSighting = { path: '', at: 0 };
  const watcher = new FolderWatcher(
    new FolderLayout(root, [...DEFAULT_PATTERNS], null),
    { stabilityMs: 200, rescanIntervalMs: 3_600_000, usePolling: false, pollingIntervalMs: 2000 },
    {
      sighted: (relative) => {
        sighted.add(relative);
        lastSighting = { path: relative, at: performance.now() };
      },
      error: (message) => errors.push(message),
      scanned: () => undefined,
    },
  );
  const started = performance.now();
  await watcher.start();
  const readySeconds = (performance.now() - started) / 1000;
  const fdsWatching = openFds().length;
  const watches = inotifyWatches();
  const walkStarted = performance.now();
  await watcher.rescan();
  const walkSeconds = (performance.now() - walkStarted) / 1000;
  // A file arriving deep in the tree is still seen through the OS events.
  const deep = path.join(root, 'box-000', 'folder-0000', 'arrived-later.pdf');
  const written = performance.now();
  fs.writeFileSync(deep, bytes);
  const deadline = Date.now() + 10_000;
  while (lastSighting.path !== 'box-000/folder-0000/arrived-later.pdf' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const eventLatencyMs = lastSighting.path.endsWith('arrived-later.pdf') ? lastSighting.at - written : Number.NaN;
  const rssMiB = process.memoryUsage().rss / 1024 / 1024;
  await watcher.stop();
  if (errors.length > 0) settings.log(`  tree: watcher errors: ${errors.slice(0, 3).join('; ')}`);
  return {
    files: count,
    directories,
    readySeconds,
    sighted: [...sighted].filter((relative) => !relative.endsWith('arrived-later.pdf')).length,
    walkSeconds,
    fdsBefore,
    fdsWatching,
    fdsAfter: openFds().length,
    fdLimit: fdLimit(),
    inotifyWatches: watches,
    eventLatencyMs,
    rssMiB,
  };
}

export const watchedFolders: Benchmark = {
  name: 'folders',
  description: 'Watched folders: 1,000 PDFs dropped at once (OCR off), a 100-file OCR subset, a 10,000-file tree (issue 8)',
  async run(settings): Promise<BenchReport> {
    const files = envCount('BENCH_FOLDER_FILES', 1000);
    const ocrFiles = envCount('BENCH_FOLDER_OCR_FILES', 100);
    const treeFiles = envCount('BENCH_FOLDER_TREE', 10_000);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-folders-'));
    try {
      const dataDir = path.join(root, 'data');
      const plain = path.join(root, 'inbox');
      const ocr = path.join(root, 'ocr-inbox');
      fs.mkdirSync(plain);
      fs.mkdirSync(ocr);
      const key = (JSON.parse(await runCli(['init', '--data-dir', dataDir, '--json'])) as { api_key: string }).api_key;
      const watch = { stability_ms: 500, rescan_interval_seconds: 10 };
      fs.writeFileSync(
        path.join(dataDir, 'config.json'),
        JSON.stringify({
          watchedFolders: [
            { name: 'bench', path: plain, target: { mode: 'case_per_subfolder' }, pipeline: { scan: { enabled: true } }, watch },
            // force_ocr: the test PDFs carry a text layer, which OCR would read instead of recognising.
            { name: 'bench-ocr', path: ocr, target: { mode: 'case_per_subfolder' }, pipeline: { scan: { enabled: true }, ocr: { options: { force_ocr: true, dpi: 150 } } }, watch },
          ],
        }),
      );
      const server = await startServer(dataDir);
      let plainResult: DropResult;
      let ocrResult: DropResult;
      let memory: { peak: number; rss: number };
      let peakWithoutOcr = Number.NaN;
      let duplicateLines = 0;
      try {
        const folders = await api<{ id: string; name: string }[]>(server, key, '/watched-folders');
        const idOf = (name: string) => folders.find((folder) => folder.name === name)?.id ?? '';
        for (const folder of folders) {
          for (let tries = 0; (await api<{ watching: string }>(server, key, `/watched-folders/${folder.id}/status`)).watching !== 'watching'; tries += 1) {
            if (tries > 600) throw new Error(`folder ${folder.name} never started watching`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        const baseline = memoryOf(server.child.pid ?? 0);
        settings.log(`  server up (RSS ${fmt(baseline.rss, 0)} MiB); dropping ${files} PDFs at once (scan, OCR off)`);
        plainResult = await dropAndFollow(settings, server, key, idOf('bench'), plain, path.join(root, 'staging'), files, 'plain');
        peakWithoutOcr = memoryOf(server.child.pid ?? 0).peak;
        settings.log(`  dropping ${ocrFiles} PDFs into the OCR folder (scan + OCR of every page)`);
        ocrResult = await dropAndFollow(settings, server, key, idOf('bench-ocr'), ocr, path.join(root, 'staging-ocr'), ocrFiles, 'ocr');
        memory = memoryOf(server.child.pid ?? 0);
        duplicateLines = server.lines.filter((line) => line.includes('same content')).length;
      } finally {
        const code = await server.stop();
        if (code !== 0) settings.log(`  obscura serve exited ${code}`);
      }
      plainResult.documents = countDocuments(dataDir, 'plain');
      ocrResult.documents = countDocuments(dataDir, 'ocr');

      const tree = await watchTree(settings, path.join(root, 'tree'), treeFiles);

      const row = (name: string, result: DropResult) => [
        name,
        fmtInt(result.files),
        fmt(result.storedSeconds),
        fmt(result.doneSeconds),
        fmt(result.files / result.doneSeconds, 1),
        fmtInt(result.documents),
        fmtInt(result.processed),
        fmtInt(result.failed),
        fmtInt(result.lost),
      ];
      const table = [
        ['drop', 'files', 'all stored s', 'all done s', 'files/s', 'documents', 'moved', 'failed', 'lost'],
        row('scan only (OCR off)', plainResult),
        row('scan + OCR (forced)', ocrResult),
      ];
      const notes = [
        `server peak RSS (VmHWM, incl. worker threads): ${fmt(peakWithoutOcr, 0)} MiB after the ${files}-file drop, ${fmt(memory.peak, 0)} MiB after the OCR drop; RSS at the end ${fmt(memory.rss, 0)} MiB; "same content" log lines ${duplicateLines}`,
        `tree: ${fmtInt(tree.files)} files in ${fmtInt(tree.directories)} folders; chokidar ready in ${fmt(tree.readySeconds)} s, full walk ${fmt(tree.walkSeconds)} s, ${fmtInt(tree.sighted)} files sighted`,
        `tree: open fds ${tree.fdsBefore} before, ${tree.fdsWatching} while watching, ${tree.fdsAfter} after (limit ${fmtInt(tree.fdLimit)}); inotify watches ${fmtInt(tree.inotifyWatches)} (limit ${fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim()}); a new deep file seen after ${fmt(tree.eventLatencyMs, 0)} ms; bench RSS ${fmt(tree.rssMiB, 0)} MiB`,
      ];
      const checks = [
        { name: `${files} dropped PDFs: none lost`, pass: plainResult.lost === 0 && plainResult.failed === 0, detail: `lost ${plainResult.lost}, failed ${plainResult.failed}` },
        { name: `${files} dropped PDFs: one document and one moved source each`, pass: plainResult.documents === files && plainResult.processed === files && plainResult.leftInInbox === 0, detail: `${plainResult.documents} documents, ${plainResult.processed} moved, ${plainResult.leftInInbox} left` },
        { name: `${ocrFiles} PDFs with OCR: none lost`, pass: ocrResult.lost === 0 && ocrResult.failed === 0 && ocrResult.documents === ocrFiles, detail: `lost ${ocrResult.lost}, failed ${ocrResult.failed}, ${ocrResult.documents} documents` },
        { name: 'no duplicate made from distinct content', pass: duplicateLines === 0, detail: `${duplicateLines} "same content" lines` },
        {
          name: `${treeFiles} files watched without running out of file handles`,
          pass: tree.sighted === treeFiles && tree.fdsWatching - tree.fdsBefore < 50 && Number.isFinite(tree.eventLatencyMs),
          detail: `${tree.sighted} sighted, +${tree.fdsWatching - tree.fdsBefore} fds while watching, new file seen ${Number.isFinite(tree.eventLatencyMs) ? 'yes' : 'no'}`,
        },
      ];
      return {
        title: 'Watched folders (compiled obscura serve, folders from config.json)',
        table,
        notes,
        checks,
        data: { plain: plainResult, ocr: ocrResult, memory: { ...memory, peakWithoutOcr }, tree },
      };
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};
