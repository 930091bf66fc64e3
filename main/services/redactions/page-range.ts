import { DomainError, type ErrorDetail } from '../../common/errors.js';
import type { Executor } from '../../db/queries/executor.js';
import { findNewestDocumentJob } from '../../db/queries/jobs.js';
import type { BoxInput } from './model.js';

/** Highest page number accepted while a document's page count is not known yet (docs/security.md). */
export const MAX_PAGE_NUMBER = 100_000;

/**
 * How many pages the document has, as far as the server knows without parsing it on the request path:
 * a PNG or JPEG is one page; a PDF or TIFF has the count of its newest completed scan, or the pages OCR
 * stored. Undefined when neither has run yet.
 */
export async function knownPageCount(db: Executor, document: { id: number; organization_id: number; document_type: string }): Promise<number | undefined> {
  if (document.document_type === 'png' || document.document_type === 'jpeg') return 1;
  const scan = await findNewestDocumentJob(db, document.organization_id, document.id, 'scan', 'completed');
  if (scan?.result) {
    const result = JSON.parse(scan.result) as { pdf?: { page_count?: unknown } | null; tiff?: { page_count?: unknown } };
    const count = result.pdf?.page_count ?? result.tiff?.page_count;
    if (typeof count === 'number' && Number.isInteger(count) && count > 0) return count;
  }
  const ocr = await db
    .selectFrom('document_pages')
    .select((eb) => eb.fn.max('page_number').as('pages'))
    .where('document_id', '=', document.id)
    .executeTakeFirst();
  const pages = ocr?.pages;
  return typeof pages === 'number' && pages > 0 ? pages : undefined;
}

/**
 * A box on a page the document does not have would save and then fail every export: refused with 422,
 * naming each offending item's page_number field (`field(index)`).
 */
export async function assertPagesExist(
  db: Executor,
  document: { id: number; organization_id: number; document_type: string },
  boxes: readonly BoxInput[],
  field: (index: number) => string,
): Promise<void> {
  if (boxes.length === 0) return;
  const count = (await knownPageCount(db, document)) ?? MAX_PAGE_NUMBER;
  const problems: ErrorDetail[] = [];
  boxes.forEach((box, index) => {
    if (box.page > count) problems.push({ field: field(index), message: `the document has ${count === MAX_PAGE_NUMBER ? `at most ${count}` : count} page(s); page ${box.page} does not exist` });
  });
  if (problems.length > 0) {
    throw new DomainError('unprocessable_entity', `redactions name pages the document does not have: ${problems[0]?.message ?? ''}`, problems.map((problem) => ({ ...problem, location: 'body' })));
  }
}
