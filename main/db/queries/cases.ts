import type { CaseRow, CaseUpdate, NewCase } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { precompiledWithSource, type SourcedRows } from './precompiled.js';
import { currentCasesEpoch, noteCasesChanged } from '../change-signals.js';

export async function insertCase(db: Executor, values: NewCase): Promise<number> {
  const row = await db.insertInto('cases').values(values).returning('id').executeTakeFirstOrThrow();
  noteCasesChanged();
  return row.id;
}

const selectCase = precompiledWithSource(
  (db, organizationId: number, id: number) => db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('id', '=', id),
  [0, 0],
);

// Committed case rows read on the root handle, valid until the next write to `cases` (every write goes
// through this module and bumps the epoch after executing). Transactions have their own executor and
// never read from or fill this cache, so checks inside a change always see the database.
const CACHE_LIMIT = 10_000;
const caseCache = new WeakMap<object, Map<string, { row: CaseRow; epoch: number }>>();

/**
 * A case of the organization, including soft-deleted ones (their status says so). Answers without a
 * promise when it can (a cached row, or a direct read on the root handle), so `await` it unless you are
 * on the synchronous read path.
 */
export function findCase(db: Executor, organizationId: number, id: number): CaseRow | undefined | Promise<CaseRow | undefined> {
  const key = `${organizationId}:${id}`;
  const epoch = currentCasesEpoch();
  const hit = caseCache.get(db)?.get(key);
  if (hit && hit.epoch === epoch) return hit.row;
  const result = selectCase(db, organizationId, id);
  if (result instanceof Promise) return result.then((rows) => rememberCase(db, key, epoch, rows));
  return rememberCase(db, key, epoch, result);
}

function rememberCase(db: Executor, key: string, epoch: number, { rows, committed }: SourcedRows<CaseRow>): CaseRow | undefined {
  const row = rows[0];
  if (row && committed && epoch === currentCasesEpoch()) {
    let entries = caseCache.get(db);
    if (!entries) caseCache.set(db, (entries = new Map()));
    if (entries.size >= CACHE_LIMIT) entries.clear();
    entries.set(key, { row: Object.freeze(row), epoch });
  }
  return row;
}

export function listCases(db: Executor, organizationId: number, page: PageRequest) {
  const query = db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
  return fetchPage(query, 'cases.id', page);
}

export async function updateCase(db: Executor, organizationId: number, id: number, values: CaseUpdate): Promise<void> {
  await db.updateTable('cases').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  noteCasesChanged();
}
