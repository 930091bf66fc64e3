import { once } from '../common/once.js';
import { loadConfig, type ConfigInput } from '../config.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { isInitialised } from '../services/data-dir.js';
import { startBackground, type Background } from './background.js';

export interface RunningWorker {
  runtime: Runtime;
  background: Background;
  stop(): Promise<void>;
}

/**
 * `obscura worker`: the background work of `obscura serve` without HTTP, against the same database and data
 * directory: it takes jobs and exports under leases and may own intake, watched folders and webhook delivery.
 */
export async function startWorker(options: { dataDir: string; overrides?: ConfigInput }): Promise<RunningWorker> {
  if (!(await isInitialised(options.dataDir))) throw new Error(`${options.dataDir} is not initialised; run \`obscura init\` (or \`obscura serve\`) first`);
  const config = loadConfig(options.dataDir, options.overrides);
  const runtime = await openRuntime(options.dataDir, config);
  let background: Background;
  try {
    background = await startBackground(runtime);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  return {
    runtime,
    background,
    stop: once(async () => {
      await background.stop();
      await runtime.close();
    }),
  };
}
