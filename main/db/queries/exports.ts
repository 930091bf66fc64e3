import type { Insertable, Updateable } from 'kysely';
import type { ExportsTable } from '../schema.js';
import { noteExportChanged } from '../change-signals.js';
import type { Executor } from './executor.js';
import { skipsLockedRows } from '../dialect.js';
import type { LeaseValues } from '../../cluster/identity.js';
import { fetchPage, type PageRequest } from './page.js';

type ExportStatus = ExportsTable['status'];

export async function insertExport(db: Executor, values: Insertable<ExportsTable>): Promise<number> {
  const row = await db.insertInto('exports').values(values).returning('id').executeTakeFirstOrThrow();
  noteExportChanged(row.id);
  return row.id;
}

export function findExport(db: Executor, organizationId: number, id: number) {
  return db.selectFrom('exports').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Any organization's export: for the runner, which works for all of them. */
export function findExportById(db: Executor, id: number) {
  return db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization's exports, newest first. */
export function pageExports(db: Executor, organizationId: number, page: PageRequest) {
  const query = db.selectFrom('exports').selectAll().where('organization_id', '=', organizationId);
  return fetchPage(query, 'exports.id', { ...page, order: 'desc' });
}

/** The oldest pending export of any organization, or undefined. */
export function findOldestPendingExport(db: Executor) {
  return db.selectFrom('exports').selectAll().where('status', '=', 'pending').orderBy('id').limit(1).executeTakeFirst();
}

export function listExportsWithStatus(db: Executor, status: ExportStatus) {
  return db.selectFrom('exports').selectAll().where('status', '=', status).orderBy('id').execute();
}

/**
 * Changes an export only while its status is one of `expected`, so a late outcome of work that was cancelled
 * meanwhile cannot overwrite the cancellation. Returns whether a row changed.
 */
export async function updateExportIfStatus(
  db: Executor,
  id: number,
  expected: ExportStatus | readonly ExportStatus[],
  values: Updateable<ExportsTable>,
): Promise<boolean> {
  const statuses = typeof expected === 'string' ? [expected] : [...expected];
  const result = await db.updateTable('exports').set(values).where('id', '=', id).where('status', 'in', statuses).executeTakeFirst();
  const changed = result.numUpdatedRows > 0n;
  if (changed && values.status !== undefined) noteExportChanged(id);
  return changed;
}

/** Takes the oldest pending export for the lease's owner (pending → processing, one more attempt); or undefined. */
export async function claimOldestPendingExport(db: Executor, lease: LeaseValues) {
  let oldest = db.selectFrom('exports as pending').select('pending.id').where('pending.status', '=', 'pending').orderBy('pending.id').limit(1);
  if (skipsLockedRows(db)) oldest = oldest.forUpdate().skipLocked();
  const row = await db
    .updateTable('exports')
    .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), progress: 0, started_at: lease.now, updated_at: lease.now, lease_owner: lease.owner, lease_expires_at: lease.expiresAt }))
    .where('id', '=', oldest)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (row) noteExportChanged(row.id);
  return row;
}

/** Extends the leases of every export `owner` builds; returns the ids it still holds. */
export async function renewExportLeases(db: Executor, owner: string, expiresAt: string): Promise<number[]> {
  const rows = await db.updateTable('exports').set({ lease_expires_at: expiresAt }).where('status', '=', 'processing').where('lease_owner', '=', owner).returning('id').execute();
  return rows.map((row) => row.id);
}

/** Changes a processing export only while `owner` (null: no lease) still holds it. */
export async function updateLeasedExport(db: Executor, id: number, owner: string | null, values: Updateable<ExportsTable>): Promise<boolean> {
  let query = db.updateTable('exports').set(values).where('id', '=', id).where('status', '=', 'processing');
  query = owner === null ? query.where('lease_owner', 'is', null) : query.where('lease_owner', '=', owner);
  const result = await query.executeTakeFirst();
  const changed = result.numUpdatedRows > 0n;
  if (changed && values.status !== undefined) noteExportChanged(id);
  return changed;
}
