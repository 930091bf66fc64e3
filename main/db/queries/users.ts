import { sql, type Insertable, type Updateable } from 'kysely';
import type { UsersTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { foldCase } from '../dialect.js';

export async function insertUser(db: Executor, values: Insertable<UsersTable>): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findUserByUsername(db: Executor, username: string) {
  return db.selectFrom('users').selectAll().where(foldCase(db, sql<string>`username`), '=', foldCase(db, sql<string>`${username}`)).executeTakeFirst();
}

export async function setUserActive(db: Executor, organizationId: number, id: number, active: boolean, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ active: active ? 1 : 0, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

export function findUser(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('users').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function listUserPage(db: Executor, organizationId: number, page: PageRequest, filter: { active?: boolean | undefined } = {}) {
  let query = db.selectFrom('users').selectAll().where('organization_id', '=', organizationId);
  if (filter.active !== undefined) query = query.where('active', '=', filter.active ? 1 : 0);
  return fetchPage(query, 'users.id', page);
}

export async function updateUser(db: Executor, organizationId: number, id: number, changes: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}
