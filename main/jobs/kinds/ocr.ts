import type { OcrDocumentType, OcrPageOutput } from '../../common/ocr-tasks.js';
import { OcrOptions, type OcrResult, type OcrResultPage } from '../../common/schemas/ocr.js';
import { pagesStoredByJob, pageSummariesOfJob, storeJobPage } from '../../services/document-pages.js';
import { ocrEngineLabel } from '../../services/ocr-assets.js';
import type { JobKindHandler } from './types.js';
import { transact } from '../../db/transaction.js';

const OCR_TYPES: readonly string[] = ['pdf', 'png', 'jpeg', 'tiff'] satisfies OcrDocumentType[];

function ocrDocumentType(documentType: string): OcrDocumentType {
  if (documentType === 'pdf' || documentType === 'png' || documentType === 'jpeg' || documentType === 'tiff') return documentType;
  throw new Error(`OCR reads ${OCR_TYPES.join(', ')} documents, not ${documentType}; audio and video are read by a transcription job`);
}

/** The pages to read, ascending; a page the document does not have fails the job with a clear message. */
function selectPages(pageCount: number, requested: number[] | undefined): number[] {
  if (!requested) return Array.from({ length: pageCount }, (_, index) => index + 1);
  const pages = [...new Set(requested)].sort((a, b) => a - b);
  const missing = pages.filter((page) => page > pageCount);
  if (missing.length > 0) throw new Error(`page ${missing.join(', ')} requested, but the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
  return pages;
}

/** Runs `work` on every item with at most `limit` at once; after a failure no new item starts, and it is rethrown. */
async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const runner = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runner));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/**
 * Plans the document, then reads its pages in parallel on the pool (one task per page, at most one per
 * thread for this job) and stores each page as soon as it is read. A job resumed after a crash finds the
 * pages it stored before and reads only the rest, so no page is read or stored twice.
 */
export const ocrHandler: JobKindHandler = {
  async run({ runtime, job, blob, pool, signal, reportProgress }) {
    const options = OcrOptions.parse(JSON.parse(job.options));
    const documentType = ocrDocumentType(blob.documentType);
    const noProgress = () => undefined;
    const { plan } = await pool.run({ kind: 'ocr-plan', jobId: job.id, blobPath: blob.path, documentType }, { signal, onProgress: noProgress });
    const wanted = selectPages(plan.page_count, options.pages);
    const earlier = new Set(await pagesStoredByJob(runtime.db, job.id));
    const todo = wanted.filter((page) => !earlier.has(page));
    let done = wanted.length - todo.length;
    reportProgress(wanted.length === 0 ? 0 : done / wanted.length);

    const readings = new Map<number, Pick<OcrPageOutput, 'reason' | 'image_source' | 'dpi' | 'timings_ms'>>();
    await forEachLimited(todo, pool.size, async (pageNumber) => {
      const { page } = await pool.run(
        {
          kind: 'ocr-page',
          jobId: job.id,
          blobPath: blob.path,
          documentType,
          pageNumber,
          forceOcr: options.force_ocr,
          dpi: options.dpi,
          minTextChars: options.min_text_chars,
          language: options.language,
          model: options.model,
        },
        { signal, onProgress: noProgress },
      );
      await transact(runtime.db, (trx) => storeJobPage(trx, runtime.clock, job, page));
      readings.set(pageNumber, { reason: page.reason, image_source: page.image_source, dpi: page.dpi, timings_ms: page.timings_ms });
      done += 1;
      reportProgress(done / wanted.length);
    });

    const wantedSet = new Set(wanted);
    const pages: OcrResultPage[] = (await pageSummariesOfJob(runtime.db, job.id))
      .filter((row) => wantedSet.has(row.page_number) && row.source !== 'transcript')
      .map((row) => ({
        page_number: row.page_number,
        source: row.source === 'ocr' ? 'ocr' : 'text_layer',
        reason: readings.get(row.page_number)?.reason ?? null,
        word_count: row.word_count,
        mean_confidence: row.mean_confidence,
        resumed: earlier.has(row.page_number),
        image_source: readings.get(row.page_number)?.image_source ?? null,
        dpi: readings.get(row.page_number)?.dpi ?? null,
        ms: readings.get(row.page_number)?.timings_ms ?? null,
      }));
    const recognized = pages.filter((page) => page.source === 'ocr');
    const recognizedWords = recognized.reduce((sum, page) => sum + (page.mean_confidence === null ? 0 : page.word_count), 0);
    const confidenceSum = recognized.reduce((sum, page) => sum + (page.mean_confidence ?? 0) * page.word_count, 0);
    const result: OcrResult = {
      document_type: documentType,
      unit: plan.unit,
      page_count: plan.page_count,
      dpi: options.dpi,
      language: options.language,
      model: options.model,
      engine: ocrEngineLabel(options.language, options.model),
      pages,
      totals: {
        pages: pages.length,
        text_layer_pages: pages.length - recognized.length,
        ocr_pages: recognized.length,
        words: pages.reduce((sum, page) => sum + page.word_count, 0),
        mean_confidence: recognizedWords === 0 ? null : Math.round((confidenceSum / recognizedWords) * 100) / 100,
      },
    };
    return result;
  },
};
