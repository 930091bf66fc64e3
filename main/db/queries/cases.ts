import type { CaseRow, CaseUpdate, NewCase } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type Page, type PageRequest } from './page.js';
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

/** GET /cases filters, already resolved to days (services/cases.ts). */
export interface CaseFilters {
  statuses?: readonly string[] | undefined;
  /** Only cases due before this day (the overdue rule: no release yet, not cancelled). */
  overdueBefore?: string | undefined;
  /** The complement of `overdueBefore`. */
  notOverdueBefore?: string | undefined;
  /** Only cases whose due date sorts before this value (the day after `due_before`). */
  dueBefore?: string | undefined;
  released?: boolean | undefined;
  sort: 'id' | 'due_date';
}

export async function listCases(db: Executor, organizationId: number, page: PageRequest, filters: CaseFilters = { sort: 'id' }): Promise<Page<CaseRow>> {
  let query = db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null);
  if (filters.statuses && filters.statuses.length > 0) query = query.where('status', 'in', [...filters.statuses]);
  if (filters.overdueBefore !== undefined) {
    // Overdue: due before today, not cancelled, and not answered (released while approved); request-clock/index.ts.
    query = query
      .where('due_date', '<', filters.overdueBefore)
      .where('status', 'not in', ['cancelled', 'deleted'])
      .where((eb) => eb.or([eb('last_release_number', 'is', null), eb('status', '!=', 'approved')]));
  }
  const notBefore = filters.notOverdueBefore;
  if (notBefore !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('due_date', 'is', null),
        eb('due_date', '>=', notBefore),
        eb('status', 'in', ['cancelled', 'deleted']),
        eb.and([eb('last_release_number', 'is not', null), eb('status', '=', 'approved')]),
      ]),
    );
  }
  if (filters.dueBefore !== undefined) query = query.where('due_date', '<', filters.dueBefore);
  if (filters.released !== undefined) query = query.where('last_release_number', filters.released ? 'is not' : 'is', null);
  if (filters.sort === 'id') return fetchPage(query, 'cases.id', page);
  // Keyset on (due_date, id) with undated cases last; the cursor holds the last id, its due date is read back.
  if (page.afterId !== undefined) {
    const after = await db.selectFrom('cases').select(['id', 'due_date']).where('organization_id', '=', organizationId).where('id', '=', page.afterId).executeTakeFirst();
    if (after) {
      const { id, due_date: due } = after;
      query =
        due === null
          ? query.where('due_date', 'is', null).where('id', '>', id)
          : query.where((eb) => eb.or([eb('due_date', '>', due), eb.and([eb('due_date', '=', due), eb('id', '>', id)]), eb('due_date', 'is', null)]));
    }
  }
  const rows = await query
    .orderBy('due_date', (order) => order.asc().nullsLast())
    .orderBy('id', 'asc')
    .limit(page.limit + 1)
    .execute();
  const hasMore = rows.length > page.limit;
  const visible = hasMore ? rows.slice(0, page.limit) : rows;
  return { rows: visible, nextAfterId: hasMore ? (visible.at(-1)?.id ?? null) : null };
}

/** Cases of the organization whose statutory clock is set (for recomputing due dates after a settings change). */
export function listClockedCases(db: Executor, organizationId: number): Promise<CaseRow[]> {
  return db.selectFrom('cases').selectAll().where('organization_id', '=', organizationId).where('received_date', 'is not', null).orderBy('id').execute();
}

export async function updateCase(db: Executor, organizationId: number, id: number, values: CaseUpdate): Promise<void> {
  await db.updateTable('cases').set(values).where('organization_id', '=', organizationId).where('id', '=', id).execute();
  noteCasesChanged();
}
