import type { RequestClockSettingsRow } from '../schema.js';
import type { Executor } from './executor.js';

export function findClockSettings(db: Executor, organizationId: number): Promise<RequestClockSettingsRow | undefined> {
  return db.selectFrom('request_clock_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function putClockSettings(db: Executor, row: RequestClockSettingsRow): Promise<void> {
  await db
    .insertInto('request_clock_settings')
    .values(row)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ time_limit_days: row.time_limit_days, holidays: row.holidays, updated_at: row.updated_at }))
    .execute();
}
