import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import { afterCommit } from './change-signals.js';
import { isPostgres, isRetryableTransactionError } from './dialect.js';
import type { Database } from './schema.js';

// Enough for a dozen writers racing on one row (each round lets one of them commit), at most 2.5 s in pauses.
const ATTEMPTS = 25;
const MAX_PAUSE_MS = 100;

/**
 * Runs work in one transaction. SQLite runs transactions one at a time on its single connection; on PostgreSQL
 * the transaction is SERIALIZABLE so the services' read-then-write steps keep that meaning, and one PostgreSQL
 * aborted for a serialization failure or a deadlock is run again from the start (work must only touch the
 * database, or be safe to repeat).
 */
export async function transact<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return db.transaction().execute(work);
  // Change signals (main/db/change-signals.ts) go out once the transaction has ended, so listeners read committed rows.
  return afterCommit(async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction().setIsolationLevel('serializable').execute(work);
      } catch (error) {
        if (attempt >= ATTEMPTS || !isRetryableTransactionError(error)) throw error;
        // Jittered, growing pause so the two losers of a race do not collide again at once.
        await sleep(Math.random() * Math.min(MAX_PAUSE_MS, 5 * 2 ** attempt));
      }
    }
  });
}
