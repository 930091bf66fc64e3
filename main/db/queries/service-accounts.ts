import type { Insertable } from 'kysely';
import type { ServiceAccountsTable } from '../schema.js';
import { noteCredentialsChanged } from '../change-signals.js';
import type { Executor } from './executor.js';

export async function insertServiceAccount(db: Executor, values: Insertable<ServiceAccountsTable>): Promise<number> {
  const row = await db.insertInto('service_accounts').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function setServiceAccountActive(db: Executor, organizationId: number, id: number, active: boolean, now: string) {
  noteCredentialsChanged();
  await db
    .updateTable('service_accounts')
    .set({ active: active ? 1 : 0, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}
