// Automatic processing (issue 18), the one front door: new documents run scan → OCR → detection by
// themselves when their organization says so (on by default). Each step is an ordinary job; the
// scheduler's outcome of one (completeJob / failJob, in the same transaction) queues the next, so the chain
// survives restarts with the jobs themselves.
import { JOB_OPTIONS } from '../../common/schemas/jobs.js';
import type { CaseProcessing, ProcessingSettings } from '../../common/schemas/auto-processing.js';
import { insertJob } from '../../db/queries/jobs.js';
import type { Executor } from '../../db/queries/executor.js';
import type { AutoProcessingTable } from '../../db/schema.js';
import { recordChange } from '../change-log.js';
import { requireCase } from '../cases.js';
import { isoNow, type Clock, type ServiceContext } from '../context.js';
import { secondsBetween } from '../../db/dialect.js';

type Step = AutoProcessingTable['step'];
const CHAIN = ['scan', 'ocr', 'detection'] as const;
type Kind = (typeof CHAIN)[number];
/** Types OCR and detection read; audio and video (transcription) are left to the client. */
const PROCESSABLE = new Set(['pdf', 'png', 'jpeg', 'tiff']);
/** E-mail, Office and text documents start once intake has made them a PDF. */
const AWAITING_INTAKE = new Set(['email', 'office', 'text']);

export async function processingSettings(db: Executor, organizationId: number): Promise<ProcessingSettings> {
  const row = await db.selectFrom('organizations').select('auto_process').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return { auto_process: row.auto_process === 1 };
}

export async function updateProcessingSettings(db: Executor, ctx: ServiceContext, body: ProcessingSettings): Promise<ProcessingSettings> {
  const before = await processingSettings(db, ctx.actor.organizationId);
  await db.updateTable('organizations').set({ auto_process: body.auto_process ? 1 : 0 }).where('id', '=', ctx.actor.organizationId).execute();
  await recordChange(db, ctx, { action: 'processing_settings.update', resourceType: 'organization', resourceId: ctx.actor.organizationId, details: { before, after: body } });
  return body;
}

async function queueStep(db: Executor, clock: Clock, organizationId: number, documentId: number, kind: Kind): Promise<number> {
  const now = clock.now().toISOString();
  const id = await insertJob(db, {
    organization_id: organizationId,
    document_id: documentId,
    kind,
    status: 'queued',
    options: JSON.stringify(JOB_OPTIONS[kind].parse({})),
    progress: 0,
    attempts: 0,
    created_at: now,
    updated_at: now,
  });
  const ctx: ServiceContext = { actor: { type: 'system', id: 'auto-processing', organizationId }, requestId: null, clock };
  await recordChange(db, ctx, { action: 'job.create', resourceType: 'job', resourceId: id, details: { kind, document_id: String(documentId), automatic: true } });
  return id;
}

/**
 * Starts the chain for new documents of an organization that processes automatically. A document waiting
 * for its password or its conversion is recorded as waiting and started by resume().
 */
export async function startAutoProcessing(db: Executor, ctx: ServiceContext, documentIds: readonly number[]): Promise<void> {
  if (documentIds.length === 0 || !(await processingSettings(db, ctx.actor.organizationId)).auto_process) return;
  const now = isoNow(ctx);
  for (const documentId of documentIds) {
    const row = await db.selectFrom('documents').select(['id', 'case_id', 'document_type', 'password_state']).where('id', '=', documentId).where('organization_id', '=', ctx.actor.organizationId).executeTakeFirst();
    if (!row || (!PROCESSABLE.has(row.document_type) && !AWAITING_INTAKE.has(row.document_type))) continue;
    const ready = PROCESSABLE.has(row.document_type) && row.password_state !== 'needs_password';
    const jobId = ready ? await queueStep(db, ctx.clock, ctx.actor.organizationId, documentId, 'scan') : null;
    await db
      .insertInto('auto_processing')
      .values({ document_id: documentId, organization_id: ctx.actor.organizationId, case_id: row.case_id, step: ready ? 'scan' : 'waiting', job_id: jobId, error: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('document_id').doNothing())
      .execute();
  }
}

/** A waiting document became processable (its password was supplied, intake converted it): its chain starts. */
export async function resumeAutoProcessing(db: Executor, clock: Clock, documentId: number): Promise<void> {
  const entry = await db.selectFrom('auto_processing').selectAll().where('document_id', '=', documentId).executeTakeFirst();
  if (!entry || entry.step !== 'waiting') return;
  const jobId = await queueStep(db, clock, entry.organization_id, documentId, 'scan');
  await db.updateTable('auto_processing').set({ step: 'scan', job_id: jobId, updated_at: clock.now().toISOString() }).where('document_id', '=', documentId).where('step', '=', 'waiting').execute();
}

/** Called with every settled job: a step of a chain moves it on, or fails it with the job's reason. */
export async function advanceAutoProcessing(db: Executor, clock: Clock, jobId: number, outcome: 'completed' | 'failed'): Promise<void> {
  const entry = await db.selectFrom('auto_processing').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  if (!entry || !(CHAIN as readonly string[]).includes(entry.step)) return;
  const now = clock.now().toISOString();
  const step = entry.step as Kind;
  if (outcome === 'failed') {
    const job = await db.selectFrom('jobs').select('error_message').where('id', '=', jobId).executeTakeFirst();
    await db.updateTable('auto_processing').set({ step: 'failed', error: job?.error_message ?? `the ${step} job failed`, updated_at: now }).where('document_id', '=', entry.document_id).execute();
    return;
  }
  // A PDF the scan could not open fails here with the scan's reason, as watched folders do.
  if (step === 'scan') {
    const unreadable = await unreadableReason(db, jobId);
    if (unreadable) {
      await db.updateTable('auto_processing').set({ step: 'failed', error: unreadable, updated_at: now }).where('document_id', '=', entry.document_id).execute();
      return;
    }
  }
  const next = CHAIN[CHAIN.indexOf(step) + 1];
  if (!next) {
    await db.updateTable('auto_processing').set({ step: 'done', job_id: jobId, updated_at: now }).where('document_id', '=', entry.document_id).execute();
    return;
  }
  const nextJob = await queueStep(db, clock, entry.organization_id, entry.document_id, next);
  await db.updateTable('auto_processing').set({ step: next as Step, job_id: nextJob, updated_at: now }).where('document_id', '=', entry.document_id).execute();
}

async function unreadableReason(db: Executor, jobId: number): Promise<string | null> {
  const job = await db.selectFrom('jobs').select('result').where('id', '=', jobId).executeTakeFirst();
  const result = job?.result ? (JSON.parse(job.result) as { pdf?: { parses?: boolean; parse_error?: string | null } | null }) : null;
  if (!result?.pdf || result.pdf.parses !== false) return null;
  return `the scan could not open the PDF: ${result.pdf.parse_error ?? 'unknown error'}`;
}

/** A case's processing: per document its state and running job, failures with file and reason, and an ETA. */
export async function caseProcessing(db: Executor, ctx: ServiceContext, caseId: number): Promise<CaseProcessing> {
  await requireCase(db, ctx, caseId);
  const rows = await db
    .selectFrom('documents as d')
    .leftJoin('auto_processing as a', 'a.document_id', 'd.id')
    .leftJoin('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('document_intake as i', 'i.document_id', 'd.id')
    .select(['d.id', 'd.file_name', 'd.password_state', 'a.step', 'a.error', 'j.id as job_id', 'j.kind', 'j.status', 'j.progress', 'i.status as intake_status', 'i.error as intake_error'])
    .where('d.case_id', '=', caseId)
    .where('d.organization_id', '=', ctx.actor.organizationId)
    .where('d.deleted_at', 'is', null)
    .orderBy('d.id')
    .limit(10_000)
    .execute();
  // Seconds a step takes in this case so far (finished automatic steps), for the ETA.
  const timing = await db
    .selectFrom('jobs as j')
    .innerJoin('documents as d', 'd.id', 'j.document_id')
    .innerJoin('auto_processing as a', 'a.document_id', 'd.id')
    .select((eb) => [eb.fn.avg<number>(secondsBetween(db, eb.ref('j.started_at'), eb.ref('j.finished_at'))).as('seconds')])
    .where('d.case_id', '=', caseId)
    .where('j.status', '=', 'completed')
    .where('j.started_at', 'is not', null)
    .executeTakeFirst();
  const stepSeconds = timing?.seconds == null ? null : Number(timing.seconds);
  let remainingSteps = 0;
  const documents = rows.map((row) => {
    // A conversion that failed ends a waiting chain: listed as failed with intake's reason.
    const intakeFailed = row.step === 'waiting' && row.intake_status === 'failed';
    const state = row.password_state === 'needs_password' ? 'needs_password' : intakeFailed ? 'failed' : (row.step ?? 'not_started');
    if (row.step && (CHAIN as readonly string[]).includes(row.step)) {
      remainingSteps += CHAIN.length - CHAIN.indexOf(row.step as Kind) - (row.status === 'running' ? Number(row.progress ?? 0) : 0);
    }
    return {
      document_id: String(row.id),
      file_name: row.file_name,
      state: state as CaseProcessing['documents'][number]['state'],
      job: row.job_id === null ? null : { id: String(row.job_id), kind: String(row.kind), status: String(row.status), progress: Number(row.progress ?? 0) },
      error:
        row.password_state === 'needs_password'
          ? `${row.file_name} is password-protected: supply its password to process it`
          : intakeFailed
            ? `conversion failed: ${row.intake_error ?? 'no reason recorded'}`
            : (row.error ?? null),
    };
  });
  const count = (state: string) => documents.filter((doc) => doc.state === state).length;
  const inProgress = documents.filter((doc) => ['scan', 'ocr', 'detection'].includes(doc.state)).length;
  return {
    auto_process: (await processingSettings(db, ctx.actor.organizationId)).auto_process,
    total: documents.length,
    done: count('done'),
    failed: count('failed'),
    in_progress: inProgress,
    waiting: count('waiting') + count('needs_password'),
    eta_seconds: inProgress === 0 ? 0 : stepSeconds === null ? null : Math.ceil(remainingSteps * stepSeconds),
    documents,
    failures: documents.filter((doc) => doc.state === 'failed' || doc.state === 'needs_password').map((doc) => ({ document_id: doc.document_id, file_name: doc.file_name, reason: doc.error ?? 'failed' })),
  };
}
