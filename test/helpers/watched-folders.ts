import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Config, ConfigInput } from '../../main/config.js';
import { WatchedFile, WatchedFolder, WatchedFolderStatus } from '../../main/common/schemas/watched-folders.js';
import { startExportRunner } from '../../main/jobs/export/index.js';
import { WorkerPool } from '../../main/jobs/pool.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { WatchedFolders } from '../../main/jobs/watched-folders/manager.js';
import { startInstance, type TestInstance } from './instance.js';
import { tempDir } from './temp.js';
import { dataOf, pageOf } from './integration-support.js';

// A real instance (HTTP, SQLite, worker threads) with the job scheduler, the export runner and the
// watched-folder runners,
// against real temporary folders. Timing is shortened through the folder's own `watch` settings.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await sleep(40);
  }
}

export interface WatchHarness {
  instance: TestInstance;
  scheduler: JobScheduler;
  folders: WatchedFolders;
  /** Log lines of the runners. */
  logs: string[];
  /** A fresh temp directory for folders and outputs, removed at close. */
  root: string;
  /** Stops the runners and starts new ones on the same database (a clean restart), optionally with other settings. */
  restartFolders(config?: Partial<Config>): Promise<void>;
  close(): Promise<void>;
}

export async function startWatchHarness(config: ConfigInput = {}): Promise<WatchHarness> {
  // API folders must lie under an allowed root (none by default); the tests' folders live in the temp directory.
  const instance = await startInstance({ organizations: 2, config: { rateLimits: { enabled: false }, watchedFolderOptions: { allowedRoots: [os.tmpdir()] }, ...config } });
  const pool = new WorkerPool(2);
  const scheduler = startScheduler(instance.runtime, { pool });
  const exportRunner = startExportRunner(instance.runtime, pool);
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  let folders = new WatchedFolders(instance.runtime, { log });
  await folders.start();
  const root = tempDir('obscura-watch-');
  const harness: WatchHarness = {
    instance,
    scheduler,
    get folders() {
      return folders;
    },
    logs,
    root,
    async restartFolders(config) {
      await folders.stop();
      const runtime = config ? { ...instance.runtime, config: { ...instance.runtime.config, ...config } } : instance.runtime;
      folders = new WatchedFolders(runtime, { log });
      await folders.start();
    },
    async close() {
      await folders.stop();
      await scheduler.stop();
      await exportRunner.stop();
      await pool.destroy();
      await instance.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Fast timing for tests: stable after 250 ms, a full walk every second. */
export const FAST_WATCH = { stability_ms: 250, rescan_interval_seconds: 1 };

export async function createFolder(instance: TestInstance, body: Record<string, unknown>, key?: string): Promise<WatchedFolder> {
  const response = await instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: { watch: FAST_WATCH, ...body }, ...(key && { key }) });
  return dataOf(response, WatchedFolder, 201);
}

export async function folderStatus(instance: TestInstance, folderId: string): Promise<WatchedFolderStatus> {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folderId}/status` }), WatchedFolderStatus);
}

/** Every file of the folder, oldest first. */
export async function folderFiles(instance: TestInstance, folderId: string): Promise<WatchedFile[]> {
  const files: WatchedFile[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${cursor}` : '';
    const page = pageOf(await instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folderId}/files?limit=100${query}` }), WatchedFile);
    files.push(...page.data);
    cursor = page.cursor;
  } while (cursor);
  return files.reverse();
}

/** Waits until the folder is watching (chokidar ready). */
export function watching(instance: TestInstance, folderId: string): Promise<WatchedFolderStatus> {
  return waitFor(async () => {
    const status = await folderStatus(instance, folderId);
    return status.watching === 'watching' ? status : undefined;
  }, 15_000, `folder ${folderId} watching`);
}

/** Waits until no file of the folder is waiting or in progress and at least `count` files are final. */
export function settled(instance: TestInstance, folderId: string, count: number, timeoutMs = 20_000): Promise<WatchedFile[]> {
  return waitFor(
    async () => {
      const status = await folderStatus(instance, folderId);
      const final = status.counts.done + status.counts.failed + status.counts.vanished;
      if (status.counts.waiting > 0 || status.counts.in_progress > 0 || final < count) return undefined;
      return folderFiles(instance, folderId);
    },
    timeoutMs,
    `${count} file(s) of folder ${folderId} settled`,
  );
}

/** Writes `bytes` in `chunks` pieces with `delayMs` between them, like a slow scanner or network copy. */
export async function writeSlowly(file: string, bytes: Buffer, chunks: number, delayMs: number): Promise<void> {
  const handle = await fsp.open(file, 'w');
  try {
    const size = Math.ceil(bytes.length / chunks);
    for (let offset = 0; offset < bytes.length; offset += size) {
      await handle.write(bytes.subarray(offset, offset + size));
      await handle.sync();
      await sleep(delayMs);
    }
  } finally {
    await handle.close();
  }
}

/** A real PDF padded with a comment to `size` bytes, unique by its label. */
export function paddedPdf(base: Buffer, size: number): Buffer {
  return Buffer.concat([base, Buffer.from('%'), Buffer.alloc(Math.max(0, size - base.length - 2), 0x61), Buffer.from('\n')]);
}

export function listTree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

export const DocumentRow = z.object({ id: z.number(), case_id: z.number(), sha256: z.string(), file_name: z.string(), deleted_at: z.string().nullable() });
