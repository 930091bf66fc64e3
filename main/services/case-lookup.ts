import type { Executor } from '../db/queries/executor.js';
import type { CaseRow } from '../db/schema.js';
import { findCase } from '../db/queries/cases.js';
import { notFound } from '../common/errors.js';
import type { ServiceContext } from './context.js';

// Apart from cases.ts so that services cases.ts itself uses (release settings) need not import it back.

/** Loads a case of the caller's organization or throws 404; deleted cases are still found. */
export async function requireCase(db: Executor, ctx: ServiceContext, caseId: number): Promise<CaseRow> {
  const row = await findCase(db, ctx.actor.organizationId, caseId);
  if (!row) throw notFound('case');
  return row;
}
