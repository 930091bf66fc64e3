import type { ConfigInput } from './config.js';
import { loadConfig } from './config.js';
import { createHttpServer, type ObscuraServer } from './http/server.js';
import { scheduleMaintenance } from './jobs/maintenance.js';
import { startScheduler } from './jobs/scheduler.js';
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
  const scheduler = startScheduler(runtime);
  let stopping: Promise<void> | null = null;
  return {
    url,
    runtime,
    server,
    stop() {
      stopping ??= (async () => {
        stopMaintenance();
        await server.close();
        // Running jobs are stopped and queued again before the database closes.
        await scheduler.stop();
        await runtime.close();
      })();
      return stopping;
    },
  };
}
