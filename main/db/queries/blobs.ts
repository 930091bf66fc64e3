import type { Executor } from './executor.js';

export async function insertBlobIfAbsent(db: Executor, sha256: string, size: number, now: string): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ sha256, size, created_at: now })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
}

export async function listBlobHashes(db: Executor): Promise<Set<string>> {
  const rows = await db.selectFrom('blobs').select('sha256').execute();
  return new Set(rows.map((row) => row.sha256));
}
