// Intake of e-mail, mailboxes, Office and text files (issue 19): the one front door of main/services/intake.
import type { Executor } from '../../db/queries/executor.js';
import type { Selectable } from 'kysely';
import type { DocumentIntakeTable, DocumentRow } from '../../db/schema.js';
import type { Runtime } from '../../runtime.js';
import type { WorkerPool } from '../../jobs/pool.js';
import type { CaseIntakeList, Family, IntakeState } from '../../common/schemas/intake.js';
import { requireCase } from '../cases.js';
import type { ServiceContext } from '../context.js';
import { requireDocument, toDocument } from '../documents.js';
import { IntakeRunner } from './runner.js';
import { chunks } from './relations.js';

export { INTAKE_LIMITS, MAX_NESTING_DEPTH, NEEDS_LIBREOFFICE } from './runner.js';
export { NEAR_DUPLICATE_THRESHOLD } from './relations.js';

/** Starts converting waiting documents on the shared pool; stop() before the pool is destroyed. */
export async function startIntake(runtime: Runtime, pool: WorkerPool): Promise<IntakeRunner> {
  const runner = new IntakeRunner(runtime, pool);
  await runner.start();
  return runner;
}

/** Intake states of many documents in a few queries (lists and families of big mailboxes). */
async function statesOf(db: Executor, rows: DocumentRow[]): Promise<Map<number, IntakeState>> {
  const intakes = new Map<number, Selectable<DocumentIntakeTable>>();
  const children = new Map<number, number>();
  for (const part of chunks(rows)) {
    const ids = part.map((row) => row.id);
    for (const intake of await db.selectFrom('document_intake').selectAll().where('document_id', 'in', ids).execute()) intakes.set(intake.document_id, intake);
    const counts = await db
      .selectFrom('documents')
      .select((eb) => ['parent_document_id', eb.fn.countAll<number>().as('n')])
      .where('parent_document_id', 'in', ids)
      .where('deleted_at', 'is', null)
      .groupBy('parent_document_id')
      .execute();
    for (const count of counts) children.set(Number(count.parent_document_id), Number(count.n));
  }
  const states = new Map<number, IntakeState>();
  for (const row of rows) {
    const intake = intakes.get(row.id);
    const awaiting = ['email', 'office', 'text'].includes(row.document_type);
    states.set(row.id, {
      document_id: String(row.id),
      status: intake?.status ?? (awaiting ? 'pending' : 'not_needed'),
      error: intake?.error ?? null,
      warnings: intake ? (JSON.parse(intake.warnings) as string[]) : [],
      original: intake ? { sha256: intake.original_sha256, media_type: intake.original_media_type, size: intake.original_size, format: intake.original_format } : null,
      pages: intake?.pages ?? null,
      depth: intake?.depth ?? 0,
      duplicate_of: row.duplicate_of === null ? null : String(row.duplicate_of),
      near_duplicate_of: intake?.near_duplicate_of == null ? null : String(intake.near_duplicate_of),
      near_duplicate_score: intake?.near_duplicate_score ?? null,
      thread_id: row.thread_id,
      thread_inclusive: intake?.thread_inclusive === 1,
      children: children.get(row.id) ?? 0,
    });
  }
  return states;
}

async function stateOf(db: Executor, row: DocumentRow): Promise<IntakeState> {
  return (await statesOf(db, [row])).get(row.id) as IntakeState;
}

export async function getIntakeState(db: Executor, ctx: ServiceContext, documentId: number): Promise<IntakeState> {
  return stateOf(db, await requireDocument(db, ctx, documentId));
}

/** The whole family a document belongs to: its top ancestor, then every descendant depth first by attachment index. */
export async function getFamily(db: Executor, ctx: ServiceContext, documentId: number): Promise<Family> {
  let root = await requireDocument(db, ctx, documentId);
  for (let hops = 0; root.parent_document_id !== null && hops < 1000; hops += 1) {
    const parent = await db.selectFrom('documents').selectAll().where('id', '=', root.parent_document_id).where('organization_id', '=', ctx.actor.organizationId).executeTakeFirst();
    if (!parent) break;
    root = parent;
  }
  // Level by level (one query per generation, not per member), then depth first by attachment index.
  const childrenOf = new Map<number, DocumentRow[]>();
  const all: DocumentRow[] = [root];
  for (let level = [root.id]; level.length > 0; ) {
    const next: number[] = [];
    for (const part of chunks(level)) {
      const rows = await db.selectFrom('documents').selectAll().where('parent_document_id', 'in', part).where('deleted_at', 'is', null).orderBy('attachment_index').orderBy('id').execute();
      for (const child of rows) {
        const parentId = child.parent_document_id as number;
        childrenOf.set(parentId, [...(childrenOf.get(parentId) ?? []), child]);
        all.push(child);
        next.push(child.id);
      }
    }
    level = next;
  }
  const states = await statesOf(db, all);
  const members: Family['members'] = [];
  const visit = (row: DocumentRow, depth: number) => {
    members.push({ depth, document: toDocument(row), intake: states.get(row.id) as IntakeState });
    for (const child of childrenOf.get(row.id) ?? []) visit(child, depth + 1);
  };
  visit(root, 0);
  return { root_id: String(root.id), members };
}

/** A case's documents with their intake state; filters: duplicates (exact or near), thread (messages sharing a thread), has_attachments. */
export async function listCaseIntake(db: Executor, ctx: ServiceContext, caseId: number, query: { filter?: 'duplicates' | 'thread' | 'has_attachments'; thread_id?: string }): Promise<CaseIntakeList> {
  await requireCase(db, ctx, caseId);
  let select = db.selectFrom('documents as d').leftJoin('document_intake as i', 'i.document_id', 'd.id').selectAll('d').where('d.case_id', '=', caseId).where('d.organization_id', '=', ctx.actor.organizationId).where('d.deleted_at', 'is', null);
  if (query.thread_id) select = select.where('d.thread_id', '=', query.thread_id);
  if (query.filter === 'duplicates') select = select.where((eb) => eb.or([eb('d.duplicate_of', 'is not', null), eb('i.near_duplicate_of', 'is not', null)]));
  if (query.filter === 'has_attachments') select = select.where((eb) => eb.exists(eb.selectFrom('documents as c').select('c.id').whereRef('c.parent_document_id', '=', 'd.id').where('c.deleted_at', 'is', null)));
  if (query.filter === 'thread') {
    select = select.where('d.thread_id', 'is not', null).where((eb) =>
      eb.exists(eb.selectFrom('documents as o').select('o.id').whereRef('o.thread_id', '=', 'd.thread_id').whereRef('o.id', '!=', 'd.id').whereRef('o.case_id', '=', 'd.case_id').where('o.deleted_at', 'is', null)),
    );
  }
  const rows = await select.orderBy('d.id').limit(5000).execute();
  const states = await statesOf(db, rows);
  return rows.map((row) => ({ depth: 0, document: toDocument(row), intake: states.get(row.id) as IntakeState }));
}

/**
 * Whether a document's content is what jobs should read: an e-mail, Office or text document is ready only once
 * intake has converted it (its type is then pdf); before that a scan, OCR or detection would see the raw file.
 */
export async function conversionReadiness(db: Executor, documentId: number): Promise<{ state: 'ready' } | { state: 'waiting'; status: string } | { state: 'failed'; error: string }> {
  const row = await db.selectFrom('documents').select(['document_type']).where('id', '=', documentId).executeTakeFirst();
  if (!row || !['email', 'office', 'text'].includes(row.document_type)) return { state: 'ready' };
  const intake = await db.selectFrom('document_intake').select(['status', 'error']).where('document_id', '=', documentId).executeTakeFirst();
  if (intake?.status === 'failed') return { state: 'failed', error: intake.error ?? 'intake failed' };
  return { state: 'waiting', status: intake?.status ?? 'pending' };
}
