import type { Insertable } from 'kysely';
import type { DownloadTokensTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertDownloadToken(db: Executor, values: Insertable<DownloadTokensTable>): Promise<void> {
  await db.insertInto('download_tokens').values(values).execute();
}

/** Atomically spends a download token; returns it only for the one request that spent it while it was valid. */
export async function consumeDownloadToken(db: Executor, tokenHash: string, now: string) {
  return db
    .updateTable('download_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteExpiredDownloadTokens(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('download_tokens').where('expires_at', '<=', now).execute();
}
