import { sql, type Insertable, type Updateable } from 'kysely';
import type { RolesTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { foldCase } from '../dialect.js';

export async function insertRole(db: Executor, values: Insertable<RolesTable>): Promise<number> {
  const row = await db.insertInto('roles').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findRole(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function findRoleByName(db: Executor, organizationId: number, name: string) {
  return db.selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where(foldCase(db, sql<string>`name`), '=', foldCase(db, sql<string>`${name}`)).executeTakeFirst();
}

export function findBuiltInRole(db: Executor, organizationId: number, builtIn: NonNullable<RolesTable['built_in']>) {
  return db.selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where('built_in', '=', builtIn).executeTakeFirst();
}

export function listRolePage(db: Executor, organizationId: number, page: PageRequest) {
  return fetchPage(db.selectFrom('roles').selectAll().where('organization_id', '=', organizationId), 'roles.id', page);
}

export async function updateRole(db: Executor, organizationId: number, id: number, changes: Updateable<RolesTable>): Promise<void> {
  await db.updateTable('roles').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes the role and its assignments; returns the ids of the users who held it. */
export async function deleteRoleWithAssignments(db: Executor, organizationId: number, id: number): Promise<number[]> {
  const holders = await db
    .deleteFrom('user_roles')
    .where('organization_id', '=', organizationId)
    .where('role_id', '=', id)
    .returning('user_id')
    .execute();
  await db.deleteFrom('roles').where('organization_id', '=', organizationId).where('id', '=', id).execute();
  return holders.map((row) => row.user_id).sort((a, b) => a - b);
}
