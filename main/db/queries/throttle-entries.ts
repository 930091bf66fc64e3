import type { Insertable } from 'kysely';
import type { ThrottleEntriesTable } from '../schema.js';
import type { Executor } from './executor.js';

export function findThrottleEntry(db: Executor, scope: string, name: string) {
  return db.selectFrom('throttle_entries').selectAll().where('scope', '=', scope).where('name', '=', name).executeTakeFirst();
}

export async function putThrottleEntry(db: Executor, values: Insertable<ThrottleEntriesTable>): Promise<void> {
  const { scope: _scope, name: _name, ...changes } = values;
  await db.insertInto('throttle_entries').values(values).onConflict((oc) => oc.columns(['scope', 'name']).doUpdateSet(changes)).execute();
}

export async function deleteThrottleEntry(db: Executor, scope: string, name: string): Promise<void> {
  await db.deleteFrom('throttle_entries').where('scope', '=', scope).where('name', '=', name).execute();
}

/** Entries of a scope idle since before `cutoff` (epoch ms): forgotten names. */
export async function deleteIdleThrottleEntries(db: Executor, scope: string, cutoff: number): Promise<void> {
  await db.deleteFrom('throttle_entries').where('scope', '=', scope).where('last_failure', '<', cutoff).where('blocked_until', '<', cutoff).execute();
}
