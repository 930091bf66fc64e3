import { sql } from 'kysely';
import { leaseLapsed } from '../cluster/identity.js';
import { isPostgres } from './dialect.js';
import type { Executor } from './queries/executor.js';

// One owner at a time for a named singleton runner (watched folders, webhook delivery, intake), among every
// process on the database. PostgreSQL: a session advisory lock on a connection held for as long as the lock
// is, so a process that dies (its connection closes) frees it at once. SQLite: a row in `runner_locks` with a
// lease the owner renews; another process takes it when the lease expired or its holder is gone from this
// machine (main/cluster/identity.ts), which covers several processes sharing one data directory.

/** Namespace of Obscura's advisory locks (the first key of pg_try_advisory_lock(int, int)). */
const ADVISORY_NAMESPACE = 0x0b5c;

export interface HeldLock {
  /** False once the lock was lost (lease taken over, connection gone); the runner must stop. */
  check(): Promise<boolean>;
  release(): Promise<void>;
}

export interface LockTerms {
  owner: string;
  /** SQLite: how long the row holds without a renewal (check() renews it). */
  leaseSeconds: number;
  now: () => Date;
}

/** Tries once to take the lock `name`; null when another process holds it. */
export function tryLock(db: Executor, name: string, terms: LockTerms): Promise<HeldLock | null> {
  return isPostgres(db) ? tryAdvisoryLock(db, name) : tryLockRow(db, name, terms);
}

function expiry(terms: LockTerms): string {
  return new Date(terms.now().getTime() + terms.leaseSeconds * 1000).toISOString();
}

async function tryLockRow(db: Executor, name: string, terms: LockTerms): Promise<HeldLock | null> {
  const taken = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('runner_locks').selectAll().where('name', '=', name).executeTakeFirst();
    if (!row) {
      await trx.insertInto('runner_locks').values({ name, owner: terms.owner, expires_at: expiry(terms) }).execute();
      return true;
    }
    if (row.owner !== terms.owner && !leaseLapsed(row.owner, row.expires_at, terms.now())) return false;
    await trx.updateTable('runner_locks').set({ owner: terms.owner, expires_at: expiry(terms) }).where('name', '=', name).where('owner', '=', row.owner).execute();
    return true;
  });
  if (!taken) return null;
  return {
    async check() {
      const result = await db.updateTable('runner_locks').set({ expires_at: expiry(terms) }).where('name', '=', name).where('owner', '=', terms.owner).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async release() {
      await db.deleteFrom('runner_locks').where('name', '=', name).where('owner', '=', terms.owner).execute();
    },
  };
}

async function tryAdvisoryLock(db: Executor, name: string): Promise<HeldLock | null> {
  // A pool connection reserved for as long as the lock is held: the lock belongs to that session.
  let acquired!: (held: boolean) => void;
  const outcome = new Promise<boolean>((resolve) => (acquired = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let session: Executor | null = null;
  const holding = db
    .connection()
    .execute(async (connection) => {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${ADVISORY_NAMESPACE}, hashtext(${name})) AS locked`.execute(connection);
      const locked = rows[0]?.locked === true;
      acquired(locked);
      if (!locked) return;
      session = connection;
      await finished;
      session = null;
      await sql`SELECT pg_advisory_unlock(${ADVISORY_NAMESPACE}, hashtext(${name}))`.execute(connection);
    })
    .catch((error: unknown) => {
      acquired(false);
      session = null;
      console.error(`runner lock ${name}:`, error instanceof Error ? error.message : error);
    });
  if (!(await outcome)) return null;
  return {
    async check() {
      const connection = session;
      if (!connection) return false;
      try {
        // Still ours only while the session lives; pg_locks shows it for this backend.
        const { rows } = await sql<{ held: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND classid = ${ADVISORY_NAMESPACE} AND objid = hashtext(${name})::oid AND granted) AS held`.execute(connection);
        return rows[0]?.held === true;
      } catch {
        return false;
      }
    },
    async release() {
      finish();
      await holding;
    },
  };
}
