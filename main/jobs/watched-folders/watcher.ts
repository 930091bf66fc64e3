import fsp from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { FolderLayout } from './layout.js';

export interface WatcherOptions {
  stabilityMs: number;
  rescanIntervalMs: number;
  usePolling: boolean;
  pollingIntervalMs: number;
}

export interface WatcherEvents {
  /** A file that may be new or changed; called for every event and every file of every walk. */
  sighted(relative: string): void;
  /** chokidar reported a problem (e.g. the folder went away); the periodic walk still runs. */
  error(message: string): void;
  /** A full walk of the folder finished. */
  scanned(at: Date, files: number): void;
}

/**
 * OS events (or stat polling for SMB/NFS) through chokidar, plus a periodic full walk of the tree that
 * catches whatever the events missed. Both only report sightings; whether a file is new, complete and
 * whose it is gets decided by the folder's runner.
 */
export class FolderWatcher {
  private chokidar: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private walking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly layout: FolderLayout,
    private readonly options: WatcherOptions,
    private readonly events: WatcherEvents,
  ) {}

  /** Resolves once chokidar has read the tree (its initial adds are the scan of existing files). */
  async start(): Promise<void> {
    const { layout, options } = this;
    const watcher = watch(layout.root, {
      ignoreInitial: false,
      persistent: true,
      followSymlinks: false,
      ignorePermissionErrors: true,
      usePolling: options.usePolling,
      interval: options.pollingIntervalMs,
      binaryInterval: options.pollingIntervalMs,
      // chokidar compares sizes only; the runner checks size and mtime again before taking a file.
      awaitWriteFinish: { stabilityThreshold: options.stabilityMs, pollInterval: Math.max(20, Math.min(1000, Math.floor(options.stabilityMs / 2))) },
      ignored: (absolute, stats) => {
        const relative = layout.relative(absolute);
        if (relative === null) return true;
        if (layout.ignores(relative)) return true;
        // Files of other types need no watch of their own; directories always do.
        return stats?.isFile() === true && !layout.matches(relative);
      },
    });
    this.chokidar = watcher;
    const report = (absolute: string) => {
      const relative = layout.relative(absolute);
      if (relative !== null && relative !== '') this.events.sighted(relative);
    };
    watcher.on('add', report);
    watcher.on('change', report);
    watcher.on('unlink', report);
    watcher.on('error', (error) => this.events.error(error instanceof Error ? error.message : String(error)));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.rescan().finally(() => this.schedule());
    }, this.options.rescanIntervalMs);
    this.timer.unref();
  }

  /** One full walk; concurrent calls share it. */
  rescan(): Promise<void> {
    this.walking ??= this.walk().finally(() => {
      this.walking = null;
    });
    return this.walking;
  }

  private async walk(): Promise<void> {
    let files = 0;
    const directories = [''];
    while (directories.length > 0 && !this.stopped) {
      const relativeDir = directories.pop() ?? '';
      let dir;
      try {
        dir = await fsp.opendir(this.layout.absolute(relativeDir));
      } catch (error) {
        if (relativeDir === '') {
          this.events.error(`cannot read the folder: ${(error as Error).message}`);
          return;
        }
        continue;
      }
      try {
        for await (const entry of dir) {
          const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
          if (this.layout.ignores(relative)) continue;
          if (entry.isDirectory()) directories.push(relative);
          else if (entry.isFile() && this.layout.matches(relative)) {
            files += 1;
            this.events.sighted(relative);
          }
        }
      } catch {
        // The directory went away while it was read; the next walk sees what is there.
      }
    }
    if (!this.stopped) this.events.scanned(new Date(), files);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.chokidar?.close();
    await this.walking;
  }
}
