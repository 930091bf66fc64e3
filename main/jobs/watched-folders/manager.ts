import { onWatchedFoldersChanged } from '../../db/change-signals.js';
import { listLiveWatchedFolders, resetWatchStates } from '../../db/queries/watched-folders.js';
import type { Runtime } from '../../runtime.js';
import { syncConfigFolders } from '../../services/watched-folders.js';
import { FolderRunner } from './folder-runner.js';
import { GroupCommit } from './group-commit.js';
import { SettleWaiter } from './settle-waiter.js';

export interface WatchedFoldersOptions {
  /** Where the runners' log lines go; stdout by default. */
  log?: (line: string) => void;
}

/**
 * Runs one FolderRunner per enabled live folder and keeps that set in step with the database: a folder
 * created, changed, disabled or deleted (API or config file) restarts, starts or stops its runner.
 */
export class WatchedFolders {
  private readonly runners = new Map<number, { runner: FolderRunner; version: string }>();
  private readonly waiter: SettleWaiter;
  /** Shared by every folder: transitions of all folders in one turn share a commit. */
  private readonly commits: GroupCommit;
  private readonly log: (line: string) => void;
  private unsubscribe: (() => void) | null = null;
  private starting: Promise<void> | null = null;
  private configApplied: Promise<void> | null = null;
  private reconciling: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly runtime: Runtime,
    options: WatchedFoldersOptions = {},
  ) {
    this.waiter = new SettleWaiter(runtime.db);
    this.commits = new GroupCommit(runtime.db);
    this.log = options.log ?? ((line) => console.log(line));
  }

  /** Applies config.json's folders, then starts a runner per enabled folder; resolves once all watch. */
  start(): Promise<void> {
    this.starting ??= this.startOnce();
    return this.starting;
  }

  /**
   * Puts config.json's folders in the database (database work only, quick): awaited before the server listens,
   * so the API lists them from its first request, while watching itself starts in the background.
   */
  applyConfig(): Promise<void> {
    const { runtime } = this;
    this.configApplied ??= (async () => {
      await resetWatchStates(runtime.db);
      await syncConfigFolders(runtime.db, runtime.clock, runtime.config.watchedFolders, { options: runtime.config.watchedFolderOptions, dataDir: runtime.dataDir }, this.log);
    })();
    return this.configApplied;
  }

  private async startOnce(): Promise<void> {
    await this.applyConfig();
    if (this.stopped) return;
    this.unsubscribe = onWatchedFoldersChanged(() => setImmediate(() => this.reconcile()));
    this.reconcile();
    await this.reconciling;
  }

  /** The runner of a folder, while it runs. */
  runner(folderId: number): FolderRunner | undefined {
    return this.runners.get(folderId)?.runner;
  }

  /** Brings the runners in line with the folders; calls during a pass coalesce into one more pass. */
  reconcile(): void {
    if (this.stopped) return;
    if (this.reconciling) {
      this.again = true;
      return;
    }
    this.reconciling = this.pass()
      .catch((error: unknown) => this.log(`watched folders: cannot start or stop runners: ${(error as Error).message}`))
      .finally(() => {
        this.reconciling = null;
        if (this.again) {
          this.again = false;
          this.reconcile();
        }
      });
  }

  private async pass(): Promise<void> {
    const wanted = new Map((await listLiveWatchedFolders(this.runtime.db)).filter((row) => row.enabled === 1).map((row) => [row.id, row]));
    for (const [id, entry] of this.runners) {
      const row = wanted.get(id);
      if (!row || row.updated_at !== entry.version) {
        this.runners.delete(id);
        await entry.runner.stop();
      }
    }
    for (const [id, row] of wanted) {
      if (this.stopped || this.runners.has(id)) continue;
      const runner = new FolderRunner(this.runtime, row, this.waiter, this.commits, this.runtime.config.watchedFolderOptions, this.log);
      this.runners.set(id, { runner, version: row.updated_at });
      try {
        await runner.start();
      } catch (error) {
        this.log(`watched folder "${row.name}": cannot start: ${(error as Error).message}`);
      }
    }
  }

  /** Stops every runner; files in flight stay recorded where they are and resume at the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => undefined);
    this.unsubscribe?.();
    await this.reconciling;
    await Promise.all([...this.runners.values()].map((entry) => entry.runner.stop()));
    this.runners.clear();
    this.waiter.close();
  }
}

export async function startWatchedFolders(runtime: Runtime, options: WatchedFoldersOptions = {}): Promise<WatchedFolders> {
  const folders = new WatchedFolders(runtime, options);
  await folders.start();
  return folders;
}
