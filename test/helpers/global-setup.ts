import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-setup.js';
import { useRunTempDir } from './temp-root-setup.js';

interface RunSetup {
  ready: Promise<{ adminUrl: string | null; teardown: () => Promise<void> }>;
  projects: number;
}

// vitest calls a global setup once for each project of the run (the shared unit files and the isolated ones):
// the run's setup is made once, in the main process, and undone when the last project's teardown runs.
const RUN = Symbol.for('obscura.test.run-setup');
const holder = globalThis as { [RUN]?: RunSetup };

/**
 * vitest global setup, in this order: the PostgreSQL cluster (OBSCURA_TEST_DATABASE=postgres; its server runs as
 * another user, so it lives in the system's temp directory), then the run's own temp directory.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = (holder[RUN] ??= {
    projects: 0,
    ready: (async () => {
      const postgres = await startPostgres();
      const removeRunTemp = useRunTempDir();
      return {
        adminUrl: postgres?.adminUrl ?? null,
        teardown: async () => {
          removeRunTemp();
          postgres?.stop();
        },
      };
    })(),
  });
  run.projects += 1;
  const { adminUrl, teardown } = await run.ready;
  if (adminUrl) project.provide('postgresAdminUrl', adminUrl);
  return async () => {
    run.projects -= 1;
    if (run.projects === 0) {
      delete holder[RUN];
      await teardown();
    }
  };
}
