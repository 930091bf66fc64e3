import { sql } from 'kysely';
import type { Executor } from './executor.js';

/**
 * Counts `requests` requests in the bucket's window and returns the window as it now stands. A window older
 * than `windowMs` restarts at `now` with them. One statement, so concurrent processes never lose a count.
 */
export async function countRequests(db: Executor, bucket: string, now: number, windowMs: number, requests: number): Promise<{ hits: number; windowStart: number }> {
  const lapsed = sql<boolean>`rate_windows.window_start <= ${now - windowMs}`;
  const row = await db
    .insertInto('rate_windows')
    .values({ bucket, window_start: now, hits: requests })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        hits: sql<number>`CASE WHEN ${lapsed} THEN ${requests} ELSE rate_windows.hits + ${requests} END`,
        window_start: sql<number>`CASE WHEN ${lapsed} THEN excluded.window_start ELSE rate_windows.window_start END`,
      }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStart: Number(row.window_start) };
}

/** Forgets windows that opened before `cutoff` (epoch ms): they have lapsed for every tier. */
export async function deleteWindowsBefore(db: Executor, cutoff: number): Promise<void> {
  await db.deleteFrom('rate_windows').where('window_start', '<', cutoff).execute();
}
