import pg from 'pg';
import { noteCasesChanged, noteCredentialsChanged } from './change-signals.js';
import { isPostgres } from './dialect.js';
import type { Executor } from './queries/executor.js';

// Caches of credentials and cases are invalidated in-process by the writing query (change-signals.ts). Other
// processes on the same database learn of the change here: on SQLite, triggers of migration 17 bump
// `shared_epochs` in the writing transaction and this watcher reads the row every POLL_MS; on PostgreSQL the
// triggers send NOTIFY obscura_epochs at commit and a LISTEN connection hears it at once.

const POLL_MS = 100;
const BUMP: Record<string, () => void> = { credentials: noteCredentialsChanged, cases: noteCasesChanged };

export interface EpochWatcher {
  stop(): Promise<void>;
}

export async function watchSharedEpochs(db: Executor, databaseUrl: string | undefined): Promise<EpochWatcher> {
  if (isPostgres(db)) {
    // Without the URL (a handle opened by hand) only this process's own writes invalidate its caches.
    return databaseUrl === undefined ? { stop: () => Promise.resolve() } : listen(databaseUrl);
  }
  let seen = await readEpochs(db);
  let reading: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    reading = readEpochs(db)
      .then((now) => {
        for (const [name, epoch] of now) if (seen.get(name) !== epoch) BUMP[name]?.();
        seen = now;
      })
      .catch(() => undefined);
  }, POLL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await reading;
    },
  };
}

async function readEpochs(db: Executor): Promise<Map<string, number>> {
  const rows = await db.selectFrom('shared_epochs').select(['name', 'epoch']).execute();
  return new Map(rows.map((row) => [row.name, Number(row.epoch)]));
}

async function listen(url: string): Promise<EpochWatcher> {
  let client: pg.Client | null = null;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => BUMP[message.payload ?? '']?.());
    next.on('error', () => undefined);
    next.on('end', () => {
      if (stopped) return;
      // Notifications sent while disconnected are lost: drop every cached entry, then listen again.
      for (const bump of Object.values(BUMP)) bump();
      setTimeout(() => void connect().catch(() => undefined), 1000).unref();
    });
    await next.connect();
    await next.query('LISTEN obscura_epochs');
    client = next;
  };
  await connect();
  return {
    async stop() {
      stopped = true;
      await client?.end().catch(() => undefined);
    },
  };
}
