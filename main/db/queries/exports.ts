import type { Insertable, Updateable } from 'kysely';
import type { ExportsTable } from '../schema.js';
import { noteExportChanged } from '../change-signals.js';
import type { Executor } from './executor.js';
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
