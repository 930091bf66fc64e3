import path from 'node:path';
import type { Executor } from '../db/queries/executor.js';
import type { WatchedFileRow, WatchedFilesTable, WatchedFolderRow } from '../db/schema.js';
import { insertBlobIfAbsent } from '../db/queries/blobs.js';
import { findDocument, findFirstCaseDocumentWithSha256, insertDocument } from '../db/queries/documents.js';
import { listDocumentRedactions } from '../db/queries/redactions.js';
import { findSubfolderCaseId, setSubfolderCase } from '../db/queries/watched-folder-cases.js';
import { findWatchedFileById, hasFileWithOutputPath, insertSeenFiles, listFilesWithContent, updateFileIfState } from '../db/queries/watched-files.js';
import { findCase } from '../db/queries/cases.js';
import type { StartableJobKind } from '../common/schemas/jobs.js';
import {
  WatchedFileStep,
  WatchedFolderPipeline,
  type Disposition,
  type PipelineStepName,
  type WatchedFolderSettings,
} from '../common/schemas/watched-folders.js';
import { recordChange } from './change-log.js';
import { isoNow, type Clock, type ServiceContext } from './context.js';
import { createCase } from './cases.js';
import { toDocument } from './documents.js';
import { sourceTypeOf, type DocumentType } from './file-types.js';
import { enqueueJob } from './jobs.js';
import { recordReviewDecisions } from './redactions/integration.js';
import { toWatchedFile } from './watched-folders.js';

// Each function here is one step of a file's way through a watched folder and runs inside the caller's
// transaction, together with the effect it records (the document, the job, the decisions). A step is
// guarded by the state it expects, so a step repeated after a crash finds its effect and does nothing twice.

type State = WatchedFilesTable['state'];
const UNFINISHED: readonly State[] = ['waiting', 'storing', 'processing', 'disposing', 'failing'];

/** The folder's pipeline acts as the system, named after the folder, in the folder's organization. */
export function folderContext(folder: Pick<WatchedFolderRow, 'id' | 'organization_id'>, clock: Clock): ServiceContext {
  return { actor: { type: 'system', id: `watched_folder:${folder.id}`, organizationId: folder.organization_id }, requestId: null, clock };
}

export interface Sighting {
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** Records files seen for the first time; a path with a file already in flight is skipped. */
export function recordSeenFiles(db: Executor, folder: WatchedFolderRow, disposition: Disposition, sightings: readonly Sighting[], now: string) {
  return insertSeenFiles(
    db,
    sightings.map((sighting) => ({
      organization_id: folder.organization_id,
      folder_id: folder.id,
      relative_path: sighting.relativePath,
      state: 'waiting' as const,
      size: sighting.size,
      mtime_ms: sighting.mtimeMs,
      steps: '[]',
      disposition,
      source_kept: 0,
      seen_at: now,
      updated_at: now,
    })),
  );
}

export async function reloadFile(db: Executor, fileId: number): Promise<WatchedFileRow> {
  const row = await findWatchedFileById(db, fileId);
  if (!row) throw new Error(`watched file ${fileId} vanished from the database`);
  return row;
}

/** waiting → storing, with the size and mtime the file was stable at. */
export function takeFile(db: Executor, fileId: number, stat: { size: number; mtimeMs: number }, now: string): Promise<boolean> {
  return updateFileIfState(db, fileId, ['waiting'], { state: 'storing', size: stat.size, mtime_ms: stat.mtimeMs, updated_at: now });
}

/** storing → waiting: the file changed while it was read; it is watched again until stable. */
export function releaseFile(db: Executor, fileId: number, now: string): Promise<boolean> {
  return updateFileIfState(db, fileId, ['storing'], { state: 'waiting', updated_at: now });
}

/** The file went away before its bytes were stored: nothing was made from it. */
export function markVanished(db: Executor, fileId: number, now: string): Promise<boolean> {
  return updateFileIfState(db, fileId, ['waiting', 'storing'], { state: 'vanished', finished_at: now, updated_at: now });
}

export function parseSteps(row: WatchedFileRow): WatchedFileStep[] {
  return WatchedFileStep.array().parse(JSON.parse(row.steps));
}

export function parsePipeline(row: WatchedFileRow): WatchedFolderPipeline {
  return WatchedFolderPipeline.parse(JSON.parse(row.pipeline ?? '{}'));
}

/** The steps a stored file goes through, frozen with it so later edits of the folder do not change its way. */
function plannedSteps(pipeline: WatchedFolderPipeline): WatchedFileStep[] {
  const names: PipelineStepName[] = [
    ...(pipeline.scan.enabled ? (['scan'] as const) : []),
    ...(pipeline.ocr ? (['ocr'] as const) : []),
    ...(pipeline.detection ? (['detection'] as const) : []),
    ...(pipeline.auto_accept ? (['auto_accept'] as const) : []),
    ...(pipeline.export ? (['export', 'output'] as const) : []),
  ];
  return names.map((name) => ({ name, status: 'pending', job_id: null, detail: null }));
}

/** A problem with the file itself (not a bug): it goes to failed/ with this message. */
export class FileProblem extends Error {}

function stemOf(relativePath: string): string {
  const base = path.posix.basename(relativePath);
  const ext = path.posix.extname(base);
  return (ext ? base.slice(0, -ext.length) : base).trim() || base;
}

/** Case name limit of the API (500); long file names are cut, not refused. */
const caseName = (name: string) => name.slice(0, 500);

async function resolveCase(db: Executor, ctx: ServiceContext, folder: WatchedFolderRow, settings: WatchedFolderSettings, file: WatchedFileRow): Promise<number> {
  const target = settings.target;
  const description = `Made by watched folder "${folder.name}" (${folder.path})`;
  if (target.mode === 'case') {
    const row = await findCase(db, folder.organization_id, Number(target.case_id));
    if (!row || row.deleted_at) throw new FileProblem(`the target case ${target.case_id} does not exist or is deleted`);
    return row.id;
  }
  if (target.mode === 'case_per_file') {
    return Number((await createCase(db, ctx, { name: caseName(stemOf(file.relative_path)), description: `${description} for ${file.relative_path}` })).id);
  }
  const segments = file.relative_path.split('/');
  const subfolder = segments.length > 1 ? (segments[0] ?? '') : '';
  const known = await findSubfolderCaseId(db, folder.id, subfolder);
  if (known !== undefined) {
    const row = await findCase(db, folder.organization_id, known);
    if (row && !row.deleted_at) return row.id;
  }
  const created = await createCase(db, ctx, { name: caseName(subfolder || folder.name), description });
  await setSubfolderCase(db, folder.id, subfolder, Number(created.id));
  return Number(created.id);
}

export type StoreOutcome =
  | { kind: 'document'; documentId: number }
  | { kind: 'duplicate'; documentId: number; of: WatchedFileRow }
  /** The same content failed before: its document is reused and processed again. */
  | { kind: 'retry'; documentId: number; of: WatchedFileRow };

export interface StoredContent {
  sha256: string;
  size: number;
  mediaType: string;
  documentType: DocumentType;
}

/**
 * storing → processing (or disposing when there is nothing to run): the document and, when needed, its case
 * are made in the same transaction that records them on the file, so a crash can never make two. Content
 * already taken from this folder makes no new document: the file is recorded as a duplicate of the earlier
 * one and only disposed of, or, when every earlier file with it failed, runs the pipeline on that document.
 */
export async function storeFile(
  db: Executor,
  ctx: ServiceContext,
  folder: WatchedFolderRow,
  settings: WatchedFolderSettings,
  file: WatchedFileRow,
  content: StoredContent,
): Promise<StoreOutcome | null> {
  const current = await reloadFile(db, file.id);
  if (current.state !== 'storing') return null;
  const now = isoNow(ctx);
  await insertBlobIfAbsent(db, content.sha256, content.size, now);
  const earlier = await listFilesWithContent(db, folder.id, content.sha256, file.id);
  const settled = earlier.find((row) => row.state !== 'failing' && row.state !== 'failed');
  const settledDocument = settled?.document_id ? await findDocument(db, folder.organization_id, settled.document_id) : undefined;
  if (settled && settledDocument) {
    await updateFileIfState(db, file.id, ['storing'], {
      state: 'disposing',
      sha256: content.sha256,
      size: content.size,
      case_id: settledDocument.case_id,
      document_id: settledDocument.id,
      duplicate_of: settled.id,
      stored_at: now,
      updated_at: now,
    });
    return { kind: 'duplicate', documentId: settledDocument.id, of: settled };
  }
  const steps = plannedSteps(settings.pipeline);
  // Only earlier files that failed hold this content: their document is processed again by this file.
  for (const row of earlier) {
    const document = row.document_id ? await findDocument(db, folder.organization_id, row.document_id) : undefined;
    if (!document) continue;
    await updateFileIfState(db, file.id, ['storing'], {
      state: steps.length > 0 ? 'processing' : 'disposing',
      sha256: content.sha256,
      size: content.size,
      case_id: document.case_id,
      document_id: document.id,
      duplicate_of: row.id,
      pipeline: JSON.stringify(settings.pipeline),
      steps: JSON.stringify(steps),
      stored_at: now,
      updated_at: now,
    });
    return { kind: 'retry', documentId: document.id, of: row };
  }
  const caseId = await resolveCase(db, ctx, folder, settings, current);
  // Content already in the case from elsewhere (an upload, another folder): recorded as for uploads.
  const sameContent = await findFirstCaseDocumentWithSha256(db, folder.organization_id, caseId, content.sha256);
  const documentId = await insertDocument(db, {
    organization_id: folder.organization_id,
    case_id: caseId,
    file_name: path.posix.basename(current.relative_path),
    description: '',
    sha256: content.sha256,
    size: content.size,
    media_type: content.mediaType,
    document_type: content.documentType,
    source_type: sourceTypeOf(content.documentType),
    duplicate_of: sameContent ? (sameContent.duplicate_of ?? sameContent.id) : null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  const document = await findDocument(db, folder.organization_id, documentId);
  if (!document) throw new Error('document vanished inside its own transaction');
  await recordChange(db, ctx, {
    action: 'document.create',
    resourceType: 'document',
    resourceId: documentId,
    details: { watched_folder_id: String(folder.id), watched_file_id: String(file.id), relative_path: current.relative_path },
    event: { type: 'document.created', payload: { document: toDocument(document) } },
  });
  await updateFileIfState(db, file.id, ['storing'], {
    state: steps.length > 0 ? 'processing' : 'disposing',
    sha256: content.sha256,
    size: content.size,
    case_id: caseId,
    document_id: documentId,
    pipeline: JSON.stringify(settings.pipeline),
    steps: JSON.stringify(steps),
    stored_at: now,
    updated_at: now,
  });
  return { kind: 'document', documentId };
}

async function saveSteps(db: Executor, fileId: number, steps: readonly WatchedFileStep[], now: string, extra: { state?: State } = {}): Promise<boolean> {
  return updateFileIfState(db, fileId, ['processing'], { steps: JSON.stringify(steps), updated_at: now, ...extra });
}

function withStep(steps: readonly WatchedFileStep[], index: number, change: Partial<WatchedFileStep>): WatchedFileStep[] {
  return steps.map((step, position) => (position === index ? { ...step, ...change } : step));
}

/** Queues the step's job and records its id on the file in one transaction. Returns the job id. */
export async function startJobStep(
  db: Executor,
  ctx: ServiceContext,
  fileId: number,
  index: number,
  kind: StartableJobKind,
  options: Record<string, unknown>,
): Promise<number | null> {
  const file = await reloadFile(db, fileId);
  const steps = parseSteps(file);
  const step = steps[index];
  if (file.state !== 'processing' || !step || file.document_id === null) return null;
  if (step.job_id !== null) return Number(step.job_id);
  const job = await enqueueJob(db, ctx, file.document_id, kind, options);
  await saveSteps(db, fileId, withStep(steps, index, { status: 'running', job_id: job.id }), isoNow(ctx));
  return Number(job.id);
}

/** Records an outside effect (e.g. an export) the step waits for, like a job. */
export async function recordStepReference(db: Executor, fileId: number, index: number, reference: number, now: string): Promise<void> {
  const file = await reloadFile(db, fileId);
  await saveSteps(db, fileId, withStep(parseSteps(file), index, { status: 'running', job_id: String(reference) }), now);
}

/** Marks the step done; after the last step the file moves on to disposal. */
export async function completeStep(db: Executor, fileId: number, index: number, detail: Record<string, unknown> | null, now: string): Promise<void> {
  const file = await reloadFile(db, fileId);
  const steps = withStep(parseSteps(file), index, { status: 'done', detail });
  const last = steps.every((step) => step.status === 'done');
  await saveSteps(db, fileId, steps, now, last ? { state: 'disposing' } : {});
}

/** Accepts the document's pending suggestions of the chosen entity kinds, and records the step, at once. */
export async function acceptSuggestions(db: Executor, ctx: ServiceContext, fileId: number, index: number, kinds: readonly string[]): Promise<number> {
  const file = await reloadFile(db, fileId);
  const steps = parseSteps(file);
  if (file.state !== 'processing' || file.document_id === null || steps[index]?.status === 'done') return 0;
  const pending = (await listDocumentRedactions(db, file.document_id)).filter((row) => {
    if (row.state !== 'pending' || !row.pending_reason) return false;
    const reason = JSON.parse(row.pending_reason) as { entity?: unknown };
    return typeof reason.entity === 'string' && kinds.includes(reason.entity);
  });
  if (pending.length > 0) {
    await recordReviewDecisions(
      db,
      ctx,
      file.document_id,
      pending.map((row) => ({ redaction_id: String(row.id), decision: 'accept' as const, reason: `accepted automatically by watched folder ${file.folder_id}` })),
    );
  }
  await completeStep(db, fileId, index, { accepted: pending.length }, isoNow(ctx));
  return pending.length;
}

/** Whether another file already chose this release path (it may not be written yet). */
export function isOutputPathReserved(db: Executor, outputPath: string): Promise<boolean> {
  return hasFileWithOutputPath(db, outputPath);
}

/** Records where the release file goes before it is written, so a repeated write replaces the same file. */
export function setOutputPath(db: Executor, fileId: number, outputPath: string, now: string): Promise<boolean> {
  return updateFileIfState(db, fileId, ['processing'], { output_path: outputPath, updated_at: now });
}

export async function markOutputWritten(db: Executor, fileId: number, index: number, now: string): Promise<void> {
  await updateFileIfState(db, fileId, ['processing'], { output_written_at: now, updated_at: now });
  await completeStep(db, fileId, index, null, now);
}

/** Any unfinished state → failing: the file is to be moved to failed/ with its error. */
export async function failFile(db: Executor, fileId: number, step: string, message: string, now: string): Promise<boolean> {
  const file = await reloadFile(db, fileId);
  const steps = parseSteps(file).map((entry) => (entry.status === 'running' || (entry.name === step && entry.status !== 'done') ? { ...entry, status: 'failed' as const } : entry));
  return updateFileIfState(db, fileId, ['waiting', 'storing', 'processing', 'disposing'], {
    state: 'failing',
    steps: JSON.stringify(steps),
    error_step: step,
    error_message: message.slice(0, 2000),
    updated_at: now,
  });
}

/** Where the source goes (processed/… or failed/…), recorded before it is moved. */
export function setDisposedPath(db: Executor, fileId: number, disposedPath: string | null, now: string): Promise<boolean> {
  return updateFileIfState(db, fileId, ['disposing', 'failing'], { disposed_path: disposedPath, updated_at: now });
}

export interface Disposal {
  /** The source is still at its path (left there, or it could not be moved). */
  sourceKept: boolean;
  /** Where the source is now, or null (left, deleted, gone, or not movable). */
  disposedPath: string | null;
}

/** disposing → done, with its audit record and event. */
export function finishFile(db: Executor, ctx: ServiceContext, fileId: number, disposal: Disposal): Promise<boolean> {
  return settleFile(db, ctx, fileId, disposal, {
    from: 'disposing',
    to: 'done',
    action: 'watched_file.complete',
    event: 'watched_file.completed',
    details: (file) => ({ document_id: file.document_id, duplicate_of: file.duplicate_of }),
  });
}

/** failing → failed, with its audit record and event. */
export function finishFailed(db: Executor, ctx: ServiceContext, fileId: number, disposal: Disposal): Promise<boolean> {
  return settleFile(db, ctx, fileId, disposal, {
    from: 'failing',
    to: 'failed',
    action: 'watched_file.fail',
    event: 'watched_file.failed',
    details: (file) => ({ error_step: file.error_step, error_message: file.error_message }),
  });
}

interface Settlement {
  from: 'disposing' | 'failing';
  to: 'done' | 'failed';
  action: string;
  event: string;
  details: (file: ReturnType<typeof toWatchedFile>) => Record<string, unknown>;
}

/** The last step of a file, done or failed: its final state, where the source went, audit and event. */
async function settleFile(db: Executor, ctx: ServiceContext, fileId: number, disposal: Disposal, settlement: Settlement): Promise<boolean> {
  const now = isoNow(ctx);
  const changed = await updateFileIfState(db, fileId, [settlement.from], {
    state: settlement.to,
    source_kept: disposal.sourceKept ? 1 : 0,
    disposed_path: disposal.disposedPath,
    finished_at: now,
    updated_at: now,
  });
  if (changed) {
    const file = toWatchedFile(await reloadFile(db, fileId));
    await recordChange(db, ctx, {
      action: settlement.action,
      resourceType: 'watched_file',
      resourceId: fileId,
      details: { folder_id: file.folder_id, relative_path: file.relative_path, ...settlement.details(file) },
      event: { type: settlement.event, payload: { watched_file: file } },
    });
  }
  return changed;
}

export { UNFINISHED as UNFINISHED_FILE_STATES };
