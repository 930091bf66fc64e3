import { once } from '../common/once.js';
import { scheduleMaintenance } from '../jobs/maintenance.js';
import { startExportRunner } from '../jobs/export/index.js';
import { WorkerPool } from '../jobs/pool.js';
import { startScheduler } from '../jobs/scheduler.js';
import { useServicePool } from '../jobs/service-pool.js';
import { startWebhookDispatcher } from '../jobs/webhooks.js';
import { WatchedFolders } from '../jobs/watched-folders/manager.js';
import type { Runtime } from '../runtime.js';
import { startIntake } from '../services/intake/index.js';
import { SingletonRunner } from './singleton.js';

export interface Background {
  /** Singleton runners and whether this process owns each now. */
  owned(): Record<string, boolean>;
  stop(): Promise<void>;
}

/**
 * The background work of one process, `obscura serve` and `obscura worker` alike. Jobs and exports are shared
 * by every process through leases; intake, watched folders and webhook delivery run in one process at a time
 * (SingletonRunner), whichever holds their lock.
 */
export async function startBackground(runtime: Runtime): Promise<Background> {
  const stopMaintenance = scheduleMaintenance(runtime);
  // One pool of worker threads for processing jobs and exports, so together they never exceed the cores.
  const pool = new WorkerPool();
  const scheduler = startScheduler(runtime, { pool });
  const exportRunner = startExportRunner(runtime, pool);
  // Password-protected PDFs are probed and decrypted, and pages previewed as released burned, on it too.
  useServicePool(pool);
  // E-mail, Office and text files become PDF documents (with their attachments as children) on the same pool.
  const intake = new SingletonRunner(runtime, 'intake', () => startIntake(runtime, pool));
  const watchedFolders = new SingletonRunner(runtime, 'watched-folders', async () => {
    const folders = new WatchedFolders(runtime);
    // config.json's folders are in the database before the server listens (the API lists them from its first
    // request); watching starts in the background: a large tree or an unmounted share must not delay serving.
    const applied = await folders.applyConfig().then(
      () => true,
      (error: unknown) => (console.error('obscura: watched folders of config.json could not be applied:', error), false),
    );
    if (applied) folders.start().catch((error: unknown) => console.error('obscura: watched folders could not start:', error));
    return folders;
  });
  const webhooks = new SingletonRunner(runtime, 'webhooks', () => startWebhookDispatcher(runtime));
  const singletons = [intake, watchedFolders, webhooks];
  for (const singleton of singletons) await singleton.begin();
  return {
    owned: () => Object.fromEntries(singletons.map((singleton) => [singleton.name, singleton.owned])),
    stop: once(async () => {
      stopMaintenance();
      // Files in flight stay recorded at their last step and resume with the next owner.
      await watchedFolders.stop();
      // Running jobs are stopped and queued again.
      await scheduler.stop();
      // Running exports are stopped and go back to pending; then the shared threads end.
      await exportRunner.stop();
      await intake.stop();
      useServicePool(null);
      await pool.destroy();
      // Attempts in flight are recorded as interrupted and sent again by the next owner.
      await webhooks.stop();
    }),
  };
}
