import { z } from 'zod';
import type { OcrPageOutput } from '../common/ocr-tasks.js';
import { DomainError } from '../common/errors.js';
import { PageWord, type DocumentPage } from '../common/schemas/pages.js';
import { listDocumentPages, listJobPageSummaries, listPageNumbersOfJob, upsertDocumentPage } from '../db/queries/document-pages.js';
import type { Executor } from '../db/queries/executor.js';
import type { DocumentPageRow, JobRow } from '../db/schema.js';
import { recordChange } from './change-log.js';
import type { Clock, ServiceContext } from './context.js';
import { requireDocument } from './documents.js';

// The page text store as OCR writes and the application API reads it.

const Words = z.array(PageWord);

/** The scheduler acts within the job's organization, so the audit record lands where the job's owner sees it. */
function jobContext(job: JobRow, clock: Clock): ServiceContext {
  return { actor: { type: 'system', id: 'scheduler', organizationId: job.organization_id }, requestId: null, clock };
}

/**
 * Stores one page read by a job, replacing what any earlier run stored for that page; with its audit record,
 * in one transaction. A page is written the moment it is read, so a job resumed after a crash skips it.
 */
export async function storeJobPage(db: Executor, clock: Clock, job: JobRow, page: OcrPageOutput): Promise<void> {
  await upsertDocumentPage(db, {
    organization_id: job.organization_id,
    document_id: job.document_id,
    page_number: page.page_number,
    source: page.source,
    job_id: job.id,
    unit: page.unit,
    width: page.width,
    height: page.height,
    rotation: page.rotation,
    text: page.text,
    words: JSON.stringify(page.words),
    mean_confidence: page.mean_confidence,
    created_at: clock.now().toISOString(),
  });
  await recordChange(db, jobContext(job, clock), {
    action: 'document_page.store',
    resourceType: 'document',
    resourceId: job.document_id,
    details: { page_number: page.page_number, source: page.source, job_id: String(job.id), words: page.words.length },
  });
}

/** Pages a job already stored (in an attempt before a restart). */
export function pagesStoredByJob(db: Executor, jobId: number): Promise<number[]> {
  return listPageNumbersOfJob(db, jobId);
}

export function pageSummariesOfJob(db: Executor, jobId: number) {
  return listJobPageSummaries(db, jobId);
}

export interface DocumentTextPage extends Omit<DocumentPage, 'words'> {
  word_count: number;
  words?: DocumentPage['words'];
}

function toTextPage(row: DocumentPageRow, includeWords: boolean): DocumentTextPage {
  const words = Words.parse(JSON.parse(row.words));
  return {
    document_id: String(row.document_id),
    page_number: row.page_number,
    source: row.source,
    job_id: row.job_id === null ? null : String(row.job_id),
    unit: row.unit,
    width: row.width,
    height: row.height,
    rotation: row.rotation,
    text: row.text,
    word_count: words.length,
    mean_confidence: row.mean_confidence,
    created_at: row.created_at,
    ...(includeWords && { words }),
  };
}

/** The stored text of a document, page by page; 404 when nothing is stored yet (OCR not run). */
export async function getDocumentText(db: Executor, ctx: ServiceContext, documentId: number, includeWords: boolean): Promise<DocumentTextPage[]> {
  await requireDocument(db, ctx, documentId);
  const rows = await listDocumentPages(db, ctx.actor.organizationId, documentId);
  if (rows.length === 0) throw new DomainError('resource_not_found', `no OCR text is stored for document ${documentId} yet: start OCR with POST /ocr/status`);
  return rows.map((row) => toTextPage(row, includeWords));
}
