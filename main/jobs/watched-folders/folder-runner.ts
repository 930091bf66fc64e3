import { setMaxListeners } from 'node:events';
import fsp from 'node:fs/promises';
import type { WatchedFolderOptions } from '../../common/schemas/watched-folders.js';
import type { WatchedFileRow, WatchedFolderRow } from '../../db/schema.js';
import { listLatestFilePerPath, listUnfinishedFiles } from '../../db/queries/watched-files.js';
import { setWatchState } from '../../db/queries/watched-folders.js';
import type { Runtime } from '../../runtime.js';
import { failFile, folderContext, markVanished, recordSeenFiles, takeFile, type Sighting } from '../../services/watched-files.js';
import { effectiveWatch, folderSettings } from '../../services/watched-folders.js';
import { FileStateMachine } from './file-state.js';
import type { GroupCommit } from './group-commit.js';
import { FolderLayout } from './layout.js';
import { Limiter } from './limiter.js';
import type { RunnerContext } from './runner-context.js';
import type { SettleWaiter } from './settle-waiter.js';
import { StabilityTracker, type Observation } from './stability.js';
import { FolderWatcher } from './watcher.js';

/** Sightings are recorded in batches of at most this many rows per transaction. */
const FLUSH_BATCH = 500;
const FLUSH_DELAY_MS = 20;
/** An unexpected error (not the file's fault) is retried this often, then the file fails with it. */
const MAX_UNEXPECTED = 5;
const RETRY_DELAY_MS = 5_000;

/** What the runner remembers of a path: a file in flight, or a finished one whose source stayed in place. */
interface Known {
  active: boolean;
  size: number;
  mtimeMs: number;
}

const FINAL: readonly WatchedFileRow['state'][] = ['done', 'failed', 'vanished'];

/**
 * One watched folder: the watcher reports sightings, new files are recorded as waiting, the stability
 * tracker decides when each is complete, and the state machine takes it from there. The database is the
 * only memory that matters: a new runner (after a restart or a settings change) resumes from it.
 */
export class FolderRunner {
  private readonly abort = new AbortController();
  private readonly context: RunnerContext;
  private readonly known = new Map<string, Known>();
  private readonly sightings = new Set<string>();
  private readonly deferred = new Set<string>();
  private readonly active = new Set<Promise<void>>();
  private readonly unexpected = new Map<number, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stability: StabilityTracker;
  private readonly machine: FileStateMachine;
  private watcher: FolderWatcher | null = null;
  private flushing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly runtime: Runtime,
    readonly folder: WatchedFolderRow,
    waiter: SettleWaiter,
    commits: GroupCommit,
    options: WatchedFolderOptions,
    log: (line: string) => void,
  ) {
    // Every file waiting for a job or a slot listens for the stop; thousands at once are expected.
    setMaxListeners(0, this.abort.signal);
    const settings = folderSettings(folder);
    const layout = new FolderLayout(folder.path, settings.patterns, settings.pipeline.export?.output_path ?? null);
    this.context = {
      runtime,
      folder,
      settings,
      layout,
      waiter,
      signal: this.abort.signal,
      log: (line) => log(`watched folder "${folder.name}": ${line}`),
      transaction: (work) => commits.run((trx) => work(trx, folderContext(folder, runtime.clock))),
    };
    this.stability = new StabilityTracker(this.watchSettings().stability_ms, (fileId, observation) => this.observed(fileId, observation));
    this.machine = new FileStateMachine(
      this.context,
      { store: new Limiter(options.storeConcurrency), pipeline: new Limiter(options.pipelineConcurrency) },
      { track: (file) => this.stability.track(file.id, layout.absolute(file.relative_path)), settled: (file) => this.remember(file) },
    );
  }

  private watchSettings() {
    return effectiveWatch(this.context.settings, this.runtime.config.watchedFolderOptions);
  }

  /** Resumes the folder's unfinished files, then starts watching. */
  async start(): Promise<void> {
    await setWatchState(this.runtime.db, this.folder.id, { watch_state: 'starting', watch_error: null });
    for (const row of await listLatestFilePerPath(this.runtime.db, this.folder.id)) {
      const active = !FINAL.includes(row.state);
      if (active || row.source_kept === 1) this.known.set(row.relative_path, { active, size: row.size, mtimeMs: row.mtime_ms });
    }
    for (const row of await listUnfinishedFiles(this.runtime.db, this.folder.id)) this.launch(row.id);
    await this.startWatching();
  }

  private async startWatching(): Promise<void> {
    if (this.stopped) return;
    const stat = await fsp.stat(this.folder.path).catch(() => null);
    if (!stat?.isDirectory()) {
      await this.unavailable(`no folder at ${this.folder.path} (not mounted?); trying again`);
      return;
    }
    const watch = this.watchSettings();
    const watcher = new FolderWatcher(
      this.context.layout,
      {
        stabilityMs: watch.stability_ms,
        rescanIntervalMs: watch.rescan_interval_seconds * 1000,
        usePolling: watch.use_polling,
        pollingIntervalMs: watch.polling_interval_ms,
      },
      {
        sighted: (relative) => this.sighted(relative),
        error: (message) => void this.watchError(message),
        scanned: (at) => void this.setState({ watch_state: 'watching', watch_error: null, last_scan_at: at.toISOString() }),
      },
    );
    this.watcher = watcher;
    try {
      await watcher.start();
    } catch (error) {
      this.watcher = null;
      await watcher.stop().catch(() => undefined);
      await this.unavailable(`cannot watch the folder: ${(error as Error).message}; trying again`);
      return;
    }
    if (this.stopped) return;
    await this.setState({ watch_state: 'watching', watch_error: null });
    // chokidar's initial adds are the scan of existing files; one walk more catches files it raced with.
    void watcher.rescan();
  }

  private async unavailable(message: string): Promise<void> {
    await this.setState({ watch_state: 'unavailable', watch_error: message });
    this.later(() => void this.startWatching(), this.watchSettings().rescan_interval_seconds * 1000);
  }

  /** The folder cannot be read (unmounted share, removed): watch again once it is back. */
  private async watchError(message: string): Promise<void> {
    this.context.log(`watch problem: ${message}`);
    const stat = await fsp.stat(this.folder.path).catch(() => null);
    if (stat?.isDirectory() || this.stopped) {
      await this.setState({ watch_error: message });
      return;
    }
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.stop();
    await this.unavailable(message);
  }

  private async setState(values: Parameters<typeof setWatchState>[2]): Promise<void> {
    if (this.stopped) return;
    await setWatchState(this.runtime.db, this.folder.id, values).catch(() => undefined);
  }

  private later(work: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) work();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private sighted(relative: string): void {
    if (this.stopped || !this.context.layout.accepts(relative)) return;
    if (this.known.get(relative)?.active) {
      // Maybe a new file at the path of one still on its way: looked at again once that one is finished.
      this.deferred.add(relative);
      return;
    }
    this.sightings.add(relative);
    if (!this.flushing) this.flushing = new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(() => this.flush());
  }

  /** Records new files as waiting, in one transaction per batch, and starts their way. */
  private async flush(): Promise<void> {
    try {
      while (this.sightings.size > 0 && !this.stopped) {
        const batch = [...this.sightings].slice(0, FLUSH_BATCH);
        for (const relative of batch) this.sightings.delete(relative);
        const fresh: Sighting[] = [];
        await Promise.all(
          batch.map(async (relative) => {
            const stat = await fsp.lstat(this.context.layout.absolute(relative)).catch(() => null);
            if (!stat?.isFile()) return;
            const known = this.known.get(relative);
            if (known?.active) {
              this.deferred.add(relative);
              return;
            }
            // A finished file whose source stayed (left, or failed/ not writable) is the same file until it changes.
            if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return;
            fresh.push({ relativePath: relative, size: stat.size, mtimeMs: stat.mtimeMs });
          }),
        );
        if (fresh.length === 0 || this.stopped) continue;
        const now = this.runtime.clock.now().toISOString();
        const rows = await this.context.transaction((trx) => recordSeenFiles(trx, this.folder, this.context.settings.disposition, fresh, now));
        for (const row of rows) {
          this.known.set(row.relative_path, { active: true, size: row.size, mtimeMs: row.mtime_ms });
          this.launch(row.id);
        }
      }
    } catch (error) {
      if (!this.stopped) this.context.log(`cannot record new files: ${(error as Error).message}`);
    } finally {
      this.flushing = null;
      if (this.sightings.size > 0 && !this.stopped) this.sighted([...this.sightings][0] ?? '');
    }
  }

  /** The stability tracker's verdict on a waiting file. */
  private observed(fileId: number, observation: Observation): void {
    if (this.stopped) return;
    const now = this.runtime.clock.now().toISOString();
    const work =
      observation.kind === 'stable'
        ? this.context.transaction((trx) => takeFile(trx, fileId, observation.stat, now))
        : this.context.transaction((trx) => markVanished(trx, fileId, now)).then((changed) => {
            if (changed) this.context.log(`file ${fileId} went away before it was complete; nothing was made from it`);
            return changed;
          });
    this.track(work.then(() => this.launch(fileId), (error: unknown) => this.failedUnexpectedly(fileId, error)));
  }

  private launch(fileId: number): void {
    if (this.stopped) return;
    this.track(this.machine.advance(fileId).catch((error: unknown) => this.failedUnexpectedly(fileId, error)));
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => {
        if (!this.stopped) this.context.log(`unexpected error: ${(error as Error).message}`);
      })
      .finally(() => this.active.delete(tracked));
    this.active.add(tracked);
  }

  /** Not the file's fault (e.g. a disk error): retried a few times, then the file fails with the error. */
  private async failedUnexpectedly(fileId: number, error: unknown): Promise<void> {
    if (this.stopped) return;
    const count = (this.unexpected.get(fileId) ?? 0) + 1;
    this.unexpected.set(fileId, count);
    const message = error instanceof Error ? error.message : String(error);
    if (count >= MAX_UNEXPECTED) {
      this.context.log(`file ${fileId}: ${message}; giving up after ${count} attempts`);
      const now = this.runtime.clock.now().toISOString();
      await this.context.transaction((trx) => failFile(trx, fileId, 'internal', message, now));
      this.launch(fileId);
      return;
    }
    this.context.log(`file ${fileId}: ${message}; trying again in ${RETRY_DELAY_MS / 1000} s`);
    this.later(() => this.launch(fileId), RETRY_DELAY_MS);
  }

  /** A file reached its final state: remember it only while its source stays in place. */
  private remember(file: WatchedFileRow): void {
    this.unexpected.delete(file.id);
    if (file.source_kept === 1) this.known.set(file.relative_path, { active: false, size: file.size, mtimeMs: file.mtime_ms });
    else this.known.delete(file.relative_path);
    if (this.deferred.delete(file.relative_path)) this.sighted(file.relative_path);
  }

  /** A full walk now (e.g. after the folder's settings changed); resolves when it is done. */
  rescan(): Promise<void> {
    return this.watcher?.rescan() ?? Promise.resolve();
  }

  /** Stops watching and waits for work in flight to reach a recorded state; a later start resumes it. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort(new Error('the watched folder stopped'));
    for (const timer of this.timers) clearTimeout(timer);
    this.stability.stop();
    await this.watcher?.stop();
    await this.flushing;
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
    await setWatchState(this.runtime.db, this.folder.id, { watch_state: 'stopped' }).catch(() => undefined);
  }
}
