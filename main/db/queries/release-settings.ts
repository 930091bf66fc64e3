import type { Executor } from './executor.js';

export function findReleaseSettings(db: Executor, organizationId: number) {
  return db.selectFrom('release_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function putReleaseSettings(db: Executor, organizationId: number, settings: string, now: string): Promise<void> {
  await db
    .insertInto('release_settings')
    .values({ organization_id: organizationId, settings, updated_at: now })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ settings, updated_at: now }))
    .execute();
}
