import { z } from 'zod';
import type { TaskPage } from '../common/analysis-tasks.js';
import { DomainError } from '../common/errors.js';
import { PageWord } from '../common/schemas/pages.js';
import { listDocumentPages } from '../db/queries/document-pages.js';
import type { Executor } from '../db/queries/executor.js';

const Words = z.array(PageWord);

/** The job that fills document_pages for a document of this type. */
export function textJobFor(documentType: string): 'ocr' | 'transcription' {
  return documentType === 'audio' || documentType === 'video' ? 'transcription' : 'ocr';
}

/**
 * The stored pages of a document (OCR, text layer or transcript), as worker tasks carry them. Throws when
 * none are stored, naming the job that stores them.
 */
export async function loadTaskPages(db: Executor, organizationId: number, documentId: number, documentType: string): Promise<TaskPage[]> {
  const rows = await listDocumentPages(db, organizationId, documentId);
  if (rows.length === 0) {
    const job = textJobFor(documentType);
    throw new DomainError(
      'conflict',
      `no text is stored for document ${documentId} yet: run ${job === 'ocr' ? 'an OCR' : 'a transcription'} job first (POST /api/v1/documents/${documentId}/${job}-jobs)`,
    );
  }
  return rows.map((row) => ({ page_number: row.page_number, unit: row.unit, rotation: row.rotation, text: row.text, words: Words.parse(JSON.parse(row.words)) }));
}
