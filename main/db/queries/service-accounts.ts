import type { Insertable, Updateable } from 'kysely';
import type { ServiceAccountsTable } from '../schema.js';
import { noteCredentialsChanged } from '../change-signals.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

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

/** A live (not deleted) service account of the organization. */
export function findServiceAccount(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('service_accounts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function listServiceAccountPage(db: Executor, organizationId: number, page: PageRequest) {
  return fetchPage(
    db.selectFrom('service_accounts').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null),
    'service_accounts.id',
    page,
  );
}

export async function updateServiceAccount(db: Executor, organizationId: number, id: number, changes: Updateable<ServiceAccountsTable>): Promise<void> {
  noteCredentialsChanged();
  await db.updateTable('service_accounts').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  // Again after the write: a lookup that read the epoch in between must not cache what it read before.
  noteCredentialsChanged();
}
