import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Job, type ScanResult } from '../../main/common/schemas/jobs.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { signInAdmin, type AppClient } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { dataOf } from '../helpers/integration-support.js';
import { greyTiffPages, proseLines, scanImage, type ScanImage } from '../helpers/ocr-fixtures.js';
import { expectRecognised, ocrResultOf, startOcrJob, storedPages, uploadFile, waitForJob, type StoredPage } from '../helpers/ocr-support.js';

// Multi-page TIFFs (faxes, scanner batches) through the real path: upload, ocr job, worker threads (compiled
// dist/worker: run `npm run build:main` first), document_pages, GET /ocr/text. Each page has its own text and
// size, so a page read from the wrong place, or the first page read three times, cannot pass.

/** Three pages of different text and width; the middle one black and white in CCITT G4, as a fax sends it. */
function threePages(): { images: ScanImage[]; fax: boolean[] } {
  const images = [0, 1, 2].map((index) => scanImage({ widthPx: 1400 + index * 40, heightPx: 380 + index * 20, lines: proseLines(71 + index, 3, 40), fontPx: 40, marginPx: 60 }));
  return { images, fax: [false, true, false] };
}

function tiffOf({ images, fax }: ReturnType<typeof threePages>, bigEndian = false): Buffer {
  return greyTiffPages(
    images.map((image, index) => ({ grey: image.grey, width: image.width, height: image.height, fax: fax[index] })),
    { bigEndian },
  );
}

/** Every word box lies inside its page. */
function expectInsidePage(page: StoredPage): void {
  for (const word of page.words) {
    expect(word.x1 >= 0 && word.y1 >= 0 && word.x2 <= page.width && word.y2 <= page.height && word.x1 < word.x2 && word.y1 < word.y2, JSON.stringify(word)).toBe(true);
  }
}

const TextBody = z.object({ success: z.literal(true), doc_id: z.string(), page_count: z.number(), pages: z.array(z.object({ page_number: z.number(), text: z.string() }).loose()) });

describe('ocr of multi-page TIFFs', () => {
  let instance: TestInstance;
  let scheduler: JobScheduler;
  let admin: AppClient;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    scheduler = startScheduler(instance.runtime);
    admin = await signInAdmin(instance);
  });
  afterAll(async () => {
    await scheduler.stop();
    await instance.close();
  });

  it('reads every page of a three-page TIFF: its own text, boxes in that page’s pixels, three pages served', async () => {
    const document = threePages();
    const documentId = await uploadFile(instance, 'batch.tif', tiffOf(document));
    const job = await startOcrJob(instance, documentId);
    const result = ocrResultOf(await waitForJob(instance, job.id));
    expect(result).toMatchObject({ document_type: 'tiff', unit: 'image_pixels', page_count: 3 });
    expect(result.pages.map((page) => [page.page_number, page.source, page.reason, page.image_source, page.resumed])).toEqual([
      [1, 'ocr', 'image', 'image_file', false],
      [2, 'ocr', 'image', 'image_file', false],
      [3, 'ocr', 'image', 'image_file', false],
    ]);
    expect(result.totals).toMatchObject({ pages: 3, ocr_pages: 3, text_layer_pages: 0 });

    const pages = await storedPages(admin, documentId);
    expect(pages.map((page) => [page.page_number, page.source, page.job_id, page.unit, page.width, page.height, page.rotation])).toEqual(
      document.images.map((image, index) => [index + 1, 'ocr', job.id, 'image_pixels', image.width, image.height, 0]),
    );
    pages.forEach((page, index) => {
      const image = document.images[index];
      if (!image) throw new Error(`no truth for page ${page.page_number}`);
      expectRecognised(page, image.truth);
      expectInsidePage(page);
      expect(page.word_count).toBe(page.words.length);
    });

    // The application API serves all three pages (without words unless asked).
    const text = await admin.request('GET', `/ocr/text?doc_id=${documentId}&user_id=${admin.userId}`);
    expect(text.statusCode, text.body).toBe(200);
    const body = TextBody.parse(text.json());
    expect(body.page_count).toBe(3);
    expect(body.pages.map((page) => page.page_number)).toEqual([1, 2, 3]);
    expect(body.pages.map((page) => page.text)).toEqual(pages.map((page) => page.text));
  }, 120_000);

  it('`pages: [2]` reads only page 2 (big-endian file); page 4 fails the job with a clear message', async () => {
    const document = threePages();
    const documentId = await uploadFile(instance, 'fax.tif', tiffOf(document, true));
    const result = ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, documentId, { pages: [2] })).id));
    expect(result).toMatchObject({ page_count: 3, totals: { pages: 1, ocr_pages: 1 } });
    expect(result.pages.map((page) => page.page_number)).toEqual([2]);
    const pages = await storedPages(admin, documentId);
    expect(pages.map((page) => page.page_number)).toEqual([2]);
    const [page] = pages;
    const truth = document.images[1];
    if (!page || !truth) throw new Error('page 2 expected');
    expect([page.width, page.height]).toEqual([truth.width, truth.height]);
    expectRecognised(page, truth.truth);

    const missing = await waitForJob(instance, (await startOcrJob(instance, documentId, { pages: [2, 4] })).id);
    expect(missing).toMatchObject({ status: 'failed', error_message: 'the ocr job failed: page 4 requested, but the document has 3 pages' });
  }, 90_000);

  it('reads every page of a BigTIFF (8-byte offsets), each its own text; a scan job lists its pages', async () => {
    const images = [0, 1].map((index) => scanImage({ widthPx: 1100 + index * 60, heightPx: 240 + index * 30, lines: proseLines(91 + index, 2, 32), fontPx: 40, marginPx: 50 }));
    const bytes = greyTiffPages(
      images.map((image, index) => ({ grey: image.grey, width: image.width, height: image.height, fax: index === 1 })),
      { bigTiff: true },
    );
    expect(bytes.readUInt16LE(2)).toBe(43);
    const documentId = await uploadFile(instance, 'batch.btf', bytes);
    const result = ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, documentId)).id));
    expect(result).toMatchObject({ document_type: 'tiff', unit: 'image_pixels', page_count: 2, totals: { pages: 2, ocr_pages: 2 } });
    const pages = await storedPages(admin, documentId);
    expect(pages.map((page) => [page.page_number, page.source, page.width, page.height])).toEqual(images.map((image, index) => [index + 1, 'ocr', image.width, image.height]));
    pages.forEach((page, index) => {
      const image = images[index];
      if (!image) throw new Error(`no truth for page ${page.page_number}`);
      expectRecognised(page, image.truth);
      expectInsidePage(page);
    });

    const started = dataOf(await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs` }), Job, 202);
    const scan = (await waitForJob(instance, started.id)).result as unknown as ScanResult;
    expect(scan.tiff).toEqual({ page_count: 2, parse_error: null, pages: images.map((image, index) => ({ page: index + 1, width: image.width, height: image.height })) });
  }, 90_000);

  it('a scan job lists the TIFF’s pages and their pixel sizes', async () => {
    const document = threePages();
    const documentId = await uploadFile(instance, 'scanned.tif', tiffOf(document));
    const started = dataOf(await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs` }), Job, 202);
    const job = await waitForJob(instance, started.id);
    expect(job.status, job.error_message ?? '').toBe('completed');
    const scan = job.result as unknown as ScanResult;
    expect(scan.file).toMatchObject({ document_type: 'tiff', media_type: 'image/tiff' });
    expect(scan.tiff).toEqual({ page_count: 3, parse_error: null, pages: document.images.map((image, index) => ({ page: index + 1, width: image.width, height: image.height })) });
    expect(scan.pdf).toBeNull();
  }, 30_000);
});
