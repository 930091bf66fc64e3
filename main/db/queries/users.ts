import type { Insertable } from 'kysely';
import type { UsersTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertUser(db: Executor, values: Insertable<UsersTable>): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findUserByUsername(db: Executor, username: string) {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function setUserActive(db: Executor, organizationId: number, id: number, active: boolean, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ active: active ? 1 : 0, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}
