import type { Insertable } from 'kysely';
import type { ReviewDecisionsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertReviewDecision(db: Executor, values: Insertable<ReviewDecisionsTable>): Promise<number> {
  const row = await db.insertInto('review_decisions').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The newest decision per redaction, for showing who decided and when. */
export function listLatestDecisions(db: Executor, redactionRowIds: readonly number[]) {
  if (redactionRowIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('review_decisions').selectAll().where('redaction_row_id', 'in', [...redactionRowIds]).orderBy('id').execute();
}
