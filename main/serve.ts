import type { ConfigInput } from './config.js';
import { loadConfig } from './config.js';
import { createHttpServer, type ObscuraServer } from './http/server.js';
import { startExportRunner } from './jobs/exports.js';
import { scheduleMaintenance } from './jobs/maintenance.js';
import { WorkerPool } from './jobs/pool.js';
import { startScheduler } from './jobs/scheduler.js';
import { startWebhookDispatcher } from './jobs/webhooks.js';
import { WatchedFolders } from './jobs/watched-folders/manager.js';
import { startIntake } from './services/intake/index.js';
import { useServicePool } from './jobs/service-pool.js';
import { openRuntime, type Runtime } from './runtime.js';
import type { InitialCredentials } from './services/bootstrap.js';
import { systemClock } from './services/context.js';
import { initialiseDataDir, isInitialised, writeCredentialsFile } from './services/data-dir.js';

export interface RunningInstance {
  url: string;
  runtime: Runtime;
  server: ObscuraServer;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  overrides?: ConfigInput;
  logLevel?: string;
  /** Called once with generated credentials when the data directory was empty. */
  onFirstRun?: (credentials: InitialCredentials, credentialsFile: string) => void;
}

/** Starts a headless instance: used by `obscura serve`, `npm start` without Electron, and the desktop shell. */
export async function startInstance(options: StartOptions): Promise<RunningInstance> {
  const config = loadConfig(options.dataDir, options.overrides);
  if (!(await isInitialised(options.dataDir))) {
    const credentials = await initialiseDataDir(options.dataDir, systemClock);
    options.onFirstRun?.(credentials, writeCredentialsFile(options.dataDir, credentials));
  }
  const runtime = await openRuntime(options.dataDir, config);
  const server = await createHttpServer(runtime, { logger: options.logLevel ? { level: options.logLevel } : false });
  let url: string;
  try {
    url = await server.listen(config.host, config.port);
  } catch (error) {
    await server.close().catch(() => undefined);
    await runtime.close();
    throw error;
  }
  const stopMaintenance = scheduleMaintenance(runtime);
  // One pool of worker threads for processing jobs and exports, so together they never exceed the cores.
  const pool = new WorkerPool();
  const scheduler = startScheduler(runtime, { pool });
  const exportRunner = startExportRunner(runtime, pool);
  // E-mail, Office and text files become PDF documents (with their attachments as children) on the same pool.
  const intake = await startIntake(runtime, pool);
  // Password-protected PDFs are probed and decrypted, and pages previewed as released burned, on it too.
  useServicePool(pool);
  // Watching starts in the background: a large tree or an unmounted share must not delay serving.
  const watchedFolders = new WatchedFolders(runtime);
  watchedFolders.start().catch((error: unknown) => console.error('obscura: watched folders could not start:', error));
  const webhooks = await startWebhookDispatcher(runtime);
  let stopping: Promise<void> | null = null;
  return {
    url,
    runtime,
    server,
    stop() {
      stopping ??= (async () => {
        stopMaintenance();
        await server.close();
        // Files in flight stay recorded at their last step and resume at the next start.
        await watchedFolders.stop();
        // Running jobs are stopped and queued again before the database closes.
        await scheduler.stop();
        // Running exports are stopped and go back to pending; then the shared threads end.
        await exportRunner.stop();
        await intake.stop();
        useServicePool(null);
        await pool.destroy();
        // Attempts in flight are recorded as interrupted and sent again at the next start.
        await webhooks.stop();
        await runtime.close();
      })();
      return stopping;
    },
  };
}
