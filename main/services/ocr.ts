import { DomainError } from '../common/errors.js';
import type { Job } from '../common/schemas/jobs.js';
import { findNewestDocumentJob } from '../db/queries/jobs.js';
import type { Executor } from '../db/queries/executor.js';
import type { ServiceContext } from './context.js';
import { requireDocument } from './documents.js';
import { enqueueJob, toJob } from './jobs.js';
import { ocrEngineStatus, type OcrEngineStatus } from './ocr-assets.js';

// The application API's OCR flow: start a job, poll its status, then read the text (document-pages.ts).

const OCR_DOCUMENT_TYPES = new Set(['pdf', 'png', 'jpeg', 'tiff']);

export interface OcrStart {
  job: Job;
  /** False when an OCR job of the document was already queued or running and is returned instead. */
  started: boolean;
}

/**
 * Starts OCR of a document, unless a job is already queued or running for it: a client that asks twice
 * (a second tab, a retried request) follows the same job instead of reading every page twice.
 */
export async function startOcr(db: Executor, ctx: ServiceContext, documentId: number, options: unknown): Promise<OcrStart> {
  const document = await requireDocument(db, ctx, documentId);
  if (!OCR_DOCUMENT_TYPES.has(document.document_type)) {
    throw new DomainError('validation_error', `document ${documentId} is ${document.document_type}: OCR reads PDFs and images; audio and video are transcribed`, [
      { field: 'doc_id', location: 'body', message: `a ${document.document_type} document has no pages to recognise` },
    ]);
  }
  const active = await findNewestDocumentJob(db, ctx.actor.organizationId, documentId, 'ocr');
  if (active && (active.status === 'queued' || active.status === 'running')) return { job: toJob(active), started: false };
  return { job: await enqueueJob(db, ctx, documentId, 'ocr', options), started: true };
}

/** The document's newest OCR job; 404 when none was ever started. */
export async function latestOcrJob(db: Executor, ctx: ServiceContext, documentId: number): Promise<Job> {
  await requireDocument(db, ctx, documentId);
  const row = await findNewestDocumentJob(db, ctx.actor.organizationId, documentId, 'ocr');
  if (!row) throw new DomainError('resource_not_found', `no OCR job was started for document ${documentId}: start one with POST /ocr/status`);
  return toJob(row);
}

export function ocrHealth(): OcrEngineStatus {
  return ocrEngineStatus();
}
