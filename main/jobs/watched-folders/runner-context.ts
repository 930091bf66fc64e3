import type { WatchedFolderSettings } from '../../common/schemas/watched-folders.js';
import type { Executor } from '../../db/queries/executor.js';
import type { WatchedFolderRow } from '../../db/schema.js';
import type { Runtime } from '../../runtime.js';
import type { ServiceContext } from '../../services/context.js';
import type { FolderLayout } from './layout.js';
import type { SettleWaiter } from './settle-waiter.js';

/** What every part of one folder's runner shares. */
export interface RunnerContext {
  runtime: Runtime;
  folder: WatchedFolderRow;
  settings: WatchedFolderSettings;
  layout: FolderLayout;
  waiter: SettleWaiter;
  /** Aborted when the runner stops: waits end, nothing new starts. */
  signal: AbortSignal;
  log(line: string): void;
  /**
   * A transaction acting as the folder (system actor `watched_folder:<id>`); resolves once committed. Work of
   * the same turn may share the transaction (group commit), so `work` must only touch the database.
   */
  transaction<T>(work: (trx: Executor, ctx: ServiceContext) => Promise<T>): Promise<T>;
}
