// Intake of e-mail, mailboxes, Office and text files (issue 19): the one front door of main/services/intake.
import type { Executor } from '../../db/queries/executor.js';
import type { DocumentRow } from '../../db/schema.js';
import type { Runtime } from '../../runtime.js';
import type { WorkerPool } from '../../jobs/pool.js';
import type { CaseIntakeList, Family, IntakeState } from '../../common/schemas/intake.js';
import { requireCase } from '../cases.js';
import type { ServiceContext } from '../context.js';
import { requireDocument, toDocument } from '../documents.js';
import { IntakeRunner } from './runner.js';

export { INTAKE_LIMITS, MAX_NESTING_DEPTH, NEEDS_LIBREOFFICE } from './runner.js';
export { NEAR_DUPLICATE_THRESHOLD } from './relations.js';

/** Starts converting waiting documents on the shared pool; stop() before the pool is destroyed. */
export async function startIntake(runtime: Runtime, pool: WorkerPool): Promise<IntakeRunner> {
  const runner = new IntakeRunner(runtime, pool);
  await runner.start();
  return runner;
}

async function stateOf(db: Executor, row: DocumentRow): Promise<IntakeState> {
  const intake = await db.selectFrom('document_intake').selectAll().where('document_id', '=', row.id).executeTakeFirst();
  const children = await db.selectFrom('documents').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_document_id', '=', row.id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  const awaiting = ['email', 'office', 'text'].includes(row.document_type);
  return {
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
    children: Number(children.n),
  };
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
  const members: Family['members'] = [];
  const visit = async (row: DocumentRow, depth: number) => {
    members.push({ depth, document: toDocument(row), intake: await stateOf(db, row) });
    const children = await db.selectFrom('documents').selectAll().where('parent_document_id', '=', row.id).where('deleted_at', 'is', null).orderBy('attachment_index').orderBy('id').execute();
    for (const child of children) await visit(child, depth + 1);
  };
  await visit(root, 0);
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
  const data: CaseIntakeList = [];
  for (const row of rows) data.push({ depth: 0, document: toDocument(row), intake: await stateOf(db, row) });
  return data;
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
