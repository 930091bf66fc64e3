import type { ConfigInput } from './config.js';
import { loadConfig } from './config.js';
import { createHttpServer, type ObscuraServer } from './http/server.js';
import { startBackground, type Background } from './cluster/background.js';
import { once } from './common/once.js';
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
  if (!(await isInitialised(options.dataDir, config.databaseUrl))) {
    const credentials = await initialiseDataDir(options.dataDir, systemClock, config.databaseUrl);
    options.onFirstRun?.(credentials, writeCredentialsFile(options.dataDir, credentials));
  }
  const runtime = await openRuntime(options.dataDir, config);
  const server = await createHttpServer(runtime, { logger: options.logLevel ? { level: options.logLevel } : false });
  // Jobs, exports, intake, watched folders and webhooks; shared safely with other processes on the database.
  // Started before listening, so the first request already sees config.json's watched folders.
  let background: Background;
  try {
    background = await startBackground(runtime);
  } catch (error) {
    await server.close().catch(() => undefined);
    await runtime.close();
    throw error;
  }
  let url: string;
  try {
    url = await server.listen(config.host, config.port);
  } catch (error) {
    await server.close().catch(() => undefined);
    await background.stop();
    await runtime.close();
    throw error;
  }
  return {
    url,
    runtime,
    server,
    stop: once(async () => {
      await server.close();
      // Running jobs and exports go back to the queue; files and webhook attempts in flight resume later.
      await background.stop();
      await runtime.close();
    }),
  };
}
