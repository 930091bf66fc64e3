import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.js';

/** Keyset page request: rows strictly after `afterId` in `order`, at most `limit`. */
export interface PageRequest {
  limit: number;
  afterId?: number | undefined;
  order?: 'asc' | 'desc';
}

export interface Page<T> {
  rows: T[];
  /** Id of the last row when more rows follow, else null. */
  nextAfterId: number | null;
}

/** Applies keyset pagination on an integer id column; fetches one extra row to learn whether more follow. */
export async function fetchPage<TB extends keyof Database, O extends { id: number }>(
  query: SelectQueryBuilder<Database, TB, O>,
  idColumn: `${TB & string}.id`,
  page: PageRequest,
): Promise<Page<O>> {
  const order = page.order ?? 'asc';
  let q = query;
  if (page.afterId !== undefined) {
    // Kysely cannot type a column reference built from a template literal, so the reference is asserted.
    q = q.where(idColumn as never, order === 'asc' ? '>' : '<', page.afterId as never);
  }
  const rows = await q
    .orderBy(idColumn as never, order)
    .limit(page.limit + 1)
    .execute();
  const hasMore = rows.length > page.limit;
  const visible = hasMore ? rows.slice(0, page.limit) : rows;
  return { rows: visible, nextAfterId: hasMore ? (visible.at(-1)?.id ?? null) : null };
}
