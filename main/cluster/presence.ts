import { sql } from 'kysely';
import type { Executor } from '../db/queries/executor.js';
import { leaseExpiry, leaseLapsed, processIdentity } from './identity.js';

// Every process on the database announces itself with a leased row in `runner_locks` (`process:<identity>`),
// renewed while it runs. Start-up clean-up that would destroy another process's work in progress (temp files,
// blobs not yet recorded, idempotency claims) runs only when no other process is present.

const PREFIX = 'process:';

export interface Presence {
  /** Processes other than this one whose presence has not lapsed. */
  others(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function announcePresence(db: Executor, leaseSeconds: number): Promise<Presence> {
  const name = `${PREFIX}${processIdentity()}`;
  await db.insertInto('runner_locks').values({ name, owner: processIdentity(), expires_at: leaseExpiry(leaseSeconds) }).onConflict((oc) => oc.column('name').doUpdateSet({ expires_at: leaseExpiry(leaseSeconds) })).execute();
  let renewal: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewal = db
      .updateTable('runner_locks')
      .set({ expires_at: leaseExpiry(leaseSeconds) })
      .where('name', '=', name)
      .execute()
      .catch((error: unknown) => console.error('obscura: presence renewal failed:', error));
  }, (leaseSeconds * 1000) / 3);
  timer.unref();
  return {
    async others() {
      const rows = await db.selectFrom('runner_locks').selectAll().where('name', 'like', sql<string>`${`${PREFIX}%`}`).where('name', '!=', name).execute();
      const now = new Date();
      const lapsed = rows.filter((row) => leaseLapsed(row.owner, row.expires_at, now)).map((row) => row.name);
      if (lapsed.length > 0) await db.deleteFrom('runner_locks').where('name', 'in', lapsed).execute();
      return rows.filter((row) => !lapsed.includes(row.name)).map((row) => row.owner);
    },
    async stop() {
      clearInterval(timer);
      await renewal;
      await db.deleteFrom('runner_locks').where('name', '=', name).execute();
    },
  };
}

/** Whether `owner` is a process still present on the database (its presence row has not lapsed). */
export async function isPresent(db: Executor, owner: string): Promise<boolean> {
  if (owner === processIdentity()) return true;
  const row = await db.selectFrom('runner_locks').selectAll().where('name', '=', `${PREFIX}${owner}`).executeTakeFirst();
  return row !== undefined && !leaseLapsed(row.owner, row.expires_at, new Date());
}
