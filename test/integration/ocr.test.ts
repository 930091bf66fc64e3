import { StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Job } from '../../main/common/schemas/jobs.js';
import { OcrOptions } from '../../main/common/schemas/ocr.js';
import { findJobById, insertJob } from '../../main/db/queries/jobs.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { storeJobPage } from '../../main/services/document-pages.js';
import { recoverInterruptedJobs } from '../../main/services/jobs.js';
import { createUserAndSignIn, signInAdmin, type AppClient } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, errorOf, orgId } from '../helpers/integration-support.js';
import { bornDigitalPdf, contains, greyJpeg, greyTiff, photoWithExifOrientation, proseLines, scanImage, scannedPdf, type TruthPage } from '../helpers/ocr-fixtures.js';
import { expectRecognised, ocrResultOf, startOcrJob, storedPages, uploadFile, waitForJob, type StoredPage } from '../helpers/ocr-support.js';

// OCR through the real path: HTTP → job → scheduler → worker threads (compiled dist/worker: run
// `npm run build:main` first) → document_pages → GET /ocr/text. Every document is generated here with its
// ground truth: the text, and a point inside each word (in user space for PDFs, in pixels for images).

/** Each stored word, in order, is the truth's word, and its box holds that word's known position. */
function expectExactWords(page: StoredPage, truth: TruthPage['words']): void {
  expect(page.words.map((word) => word.text)).toEqual(truth.map((word) => word.text));
  page.words.forEach((word, index) => {
    const expected = truth[index];
    expect(expected && contains(word, expected.at), `${word.text} [${word.x1}, ${word.y1}, ${word.x2}, ${word.y2}] holds ${String(expected?.at)}`).toBe(true);
  });
}

const pageNumber = (pages: StoredPage[], number: number): StoredPage => {
  const page = pages.find((candidate) => candidate.page_number === number);
  if (!page) throw new Error(`page ${number} not stored`);
  return page;
};

/** Three born-digital pages: plain lines in three fonts; /Rotate 90 with a crop box offset; rotated text. */
function textDocument() {
  return bornDigitalPdf([
    {
      lines: [
        { text: 'Records request 2026-114 for the city clerk', x: 72, y: 700, size: 12 },
        { text: 'Payroll ledgers of the finance department', x: 72, y: 670, size: 14, font: StandardFonts.TimesRoman },
        { text: 'Invoice 0045 approved by Linda Okafor', x: 72, y: 640, size: 11, font: StandardFonts.Courier },
      ],
    },
    {
      cropBox: [36, 36, 576, 756],
      rotation: 90,
      lines: [
        { text: 'Rotated page with a crop box offset', x: 72, y: 700, size: 12 },
        // Outside the crop box: not shown, so not a word of the page.
        { text: 'Hidden margin note', x: 590, y: 400, size: 10 },
      ],
    },
    {
      lines: [
        { text: 'Sideways text along the margin', x: 100, y: 200, size: 12, rotate: 90 },
        { text: 'Slanted caption for a figure', x: 200, y: 400, size: 12, rotate: 30 },
      ],
    },
  ]);
}

describe('ocr jobs', () => {
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

  it('reads born-digital pages from their text layer: exact words, boxes on the words, rotation and crop box handled', async () => {
    const { bytes, truth } = await textDocument();
    const documentId = await uploadFile(instance, 'letters.pdf', bytes);
    const queued = await startOcrJob(instance, documentId);
    expect(queued).toMatchObject({ kind: 'ocr', status: 'queued', options: { force_ocr: false, dpi: 300, min_text_chars: 10, language: 'eng' } });
    const result = ocrResultOf(await waitForJob(instance, queued.id));
    expect(result).toMatchObject({ document_type: 'pdf', unit: 'pdf_points', page_count: 3, dpi: 300, language: 'eng' });
    expect(result.pages.map((page) => [page.page_number, page.source, page.reason, page.resumed, page.mean_confidence])).toEqual([
      [1, 'text_layer', 'text_layer', false, null],
      [2, 'text_layer', 'text_layer', false, null],
      [3, 'text_layer', 'text_layer', false, null],
    ]);
    const [one, two, three] = truth;
    if (!one || !two || !three) throw new Error('three pages expected');
    const visible = two.words.slice(0, 7);
    expect(result.totals).toEqual({ pages: 3, text_layer_pages: 3, ocr_pages: 0, words: one.words.length + visible.length + three.words.length, mean_confidence: null });

    const pages = await storedPages(admin, documentId);
    expect(pages.map((page) => [page.page_number, page.source, page.job_id, page.unit, page.width, page.height, page.rotation])).toEqual([
      [1, 'text_layer', queued.id, 'pdf_points', 612, 792, 0],
      [2, 'text_layer', queued.id, 'pdf_points', 540, 720, 90],
      [3, 'text_layer', queued.id, 'pdf_points', 612, 792, 0],
    ]);
    expect(pageNumber(pages, 1).text).toBe(one.text);
    expectExactWords(pageNumber(pages, 1), one.words);
    expect(pageNumber(pages, 2).text).toBe('Rotated page with a crop box offset');
    expectExactWords(pageNumber(pages, 2), visible);
    expect(pageNumber(pages, 3).text).toBe(three.text);
    expectExactWords(pageNumber(pages, 3), three.words);
    for (const page of pages) {
      expect(page.word_count).toBe(page.words.length);
      expect(page.text.split(/\s+/)).toEqual(page.words.map((word) => word.text));
      for (const word of page.words) expect(word.confidence).toBe(100);
    }
  }, 60_000);

  it('force_ocr recognises a born-digital page and boxes each word where the text was drawn', async () => {
    const { bytes, truth } = await textDocument();
    const documentId = await uploadFile(instance, 'forced.pdf', bytes);
    const first = ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, documentId)).id));
    expect(first.totals.text_layer_pages).toBe(3);

    const forced = await startOcrJob(instance, documentId, { force_ocr: true, pages: [1] });
    const result = ocrResultOf(await waitForJob(instance, forced.id));
    expect(result.pages).toEqual([
      { page_number: 1, source: 'ocr', reason: 'forced', word_count: expect.any(Number), mean_confidence: expect.any(Number), resumed: false, image_source: 'rendered_page', dpi: 300, ms: expect.objectContaining({ recognize: expect.any(Number) }) },
    ]);
    expect(result.totals.ocr_pages).toBe(1);
    expect(result.totals.mean_confidence).toBeGreaterThan(70);

    const pages = await storedPages(admin, documentId);
    // Page 1 replaced by the forced run; the others are still the first job's.
    expect(pages.map((page) => [page.page_number, page.source, page.job_id])).toEqual([
      [1, 'ocr', forced.id],
      [2, 'text_layer', expect.any(String)],
      [3, 'text_layer', expect.any(String)],
    ]);
    const page = pageNumber(pages, 1);
    if (!truth[0]) throw new Error('no truth');
    expectRecognised(page, truth[0]);
    expect(page.mean_confidence).toBeGreaterThan(70);
  }, 90_000);

  it('recognises scanned pages: crop box offset with a Bates stamp over the scan, and a page with /Rotate 90', async () => {
    const upright = scanImage({ widthPx: 2550, heightPx: 1300, lines: proseLines(11, 9, 60), noise: 0.002 });
    const sideways = scanImage({ widthPx: 2550, heightPx: 1300, lines: proseLines(12, 9, 60), noise: 0.002 });
    const { bytes, truth } = await scannedPdf([
      { image: upright, mediaBox: [0, 0, 700, 420], cropBox: [40, 50, 652, 362], stamp: 'BATES-000123' },
      { image: sideways, rotation: 90 },
    ]);
    const documentId = await uploadFile(instance, 'scan.pdf', bytes);
    const job = await startOcrJob(instance, documentId);
    const result = ocrResultOf(await waitForJob(instance, job.id));
    // The stamped page is rendered (the stamp is part of what is read); the plain scan is read from its own picture.
    expect(result.pages.map((page) => [page.page_number, page.source, page.reason, page.image_source])).toEqual([
      [1, 'ocr', 'scanned_with_sparse_text', 'rendered_page'],
      [2, 'ocr', 'no_text_layer', 'page_picture'],
    ]);
    expect(result.pages[1]?.dpi).toBeCloseTo(300, 0);
    expect(result.totals.ocr_pages).toBe(2);

    const pages = await storedPages(admin, documentId);
    const [first, second] = [pageNumber(pages, 1), pageNumber(pages, 2)];
    expect([first.width, first.height, first.rotation, second.width, second.height, second.rotation]).toEqual([612, 312, 0, 312, 612, 90]);
    // The stamp is part of the page as shown; it is read with the rest and left out of the comparison.
    const stamp = first.words.find((word) => word.text === 'BATES-000123');
    expect(stamp, first.text).toBeDefined();
    if (stamp) expect(contains(stamp, [40 + 12 + 20, 50 + 12 + 3])).toBe(true);
    const withoutStamp = { ...first, text: first.text.replace('BATES-000123', ''), words: first.words.filter((word) => word !== stamp) };
    if (!truth[0] || !truth[1]) throw new Error('two pages expected');
    expectRecognised(withoutStamp, truth[0]);
    expectRecognised(second, truth[1]);
  }, 120_000);

  it('segments the page as the tesseract command does: two columns are read one after the other', async () => {
    const lines = proseLines(31, 20, 30);
    const image = scanImage({ widthPx: 2000, heightPx: 700, lines, fontPx: 30, marginPx: 60, columns: 2 });
    const documentId = await uploadFile(instance, 'columns.png', image.png);
    ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, documentId)).id));
    const [page] = await storedPages(admin, documentId);
    if (!page) throw new Error('no page');
    // The truth is in column order: reading across the columns would put every other line out of place.
    expectRecognised(page, image.truth);
  }, 60_000);

  it('recognises images (PNG, JPEG, TIFF) with boxes in image pixels', async () => {
    const image = scanImage({ widthPx: 1500, heightPx: 420, lines: proseLines(21, 4, 42), fontPx: 42, marginPx: 60 });
    const files = [
      { name: 'page.png', bytes: image.png },
      { name: 'page.jpg', bytes: greyJpeg(image.grey, image.width, image.height) },
      { name: 'page.tif', bytes: greyTiff(image.grey, image.width, image.height) },
    ];
    const jobs = [];
    for (const file of files) {
      const documentId = await uploadFile(instance, file.name, file.bytes);
      jobs.push({ documentId, job: await startOcrJob(instance, documentId) });
    }
    for (const { documentId, job } of jobs) {
      const result = ocrResultOf(await waitForJob(instance, job.id));
      expect(result).toMatchObject({ unit: 'image_pixels', page_count: 1, pages: [{ page_number: 1, source: 'ocr', reason: 'image', image_source: 'image_file' }] });
      const [page] = await storedPages(admin, documentId);
      if (!page) throw new Error('no page');
      expect([page.unit, page.width, page.height, page.rotation]).toEqual(['image_pixels', 1500, 420, 0]);
      expectRecognised(page, image.truth);
    }
  }, 120_000);

  it('reads a phone photo as it is displayed: EXIF orientation applied in either byte order, boxes in the turned pixels', async () => {
    const image = scanImage({ widthPx: 1500, heightPx: 420, lines: proseLines(23, 4, 42), fontPx: 42, marginPx: 60 });
    for (const byteOrder of ['II', 'MM'] as const) {
      const documentId = await uploadFile(instance, `photo-${byteOrder}.jpg`, photoWithExifOrientation(image.grey, image.width, image.height, byteOrder));
      const job = await startOcrJob(instance, documentId);
      expect(ocrResultOf(await waitForJob(instance, job.id))).toMatchObject({ unit: 'image_pixels', page_count: 1 });
      const [page] = await storedPages(admin, documentId);
      if (!page) throw new Error('no page');
      // The stored pixels are 420 × 1500; the viewer and the exports show (and place boxes on) 1500 × 420.
      expect([page.width, page.height], byteOrder).toEqual([1500, 420]);
      expectRecognised(page, image.truth);
    }
  }, 120_000);

  it('a job resumed after a crash reads only the pages it had not stored, and stores each page once', async () => {
    const { bytes } = await textDocument();
    const documentId = await uploadFile(instance, 'resumed.pdf', bytes);
    const { db, clock } = instance.runtime;
    // The state a killed process leaves: the job running, page 2 stored by its first attempt.
    const now = clock.now().toISOString();
    const id = await insertJob(db, {
      organization_id: orgId(instance),
      document_id: Number(documentId),
      kind: 'ocr',
      status: 'running',
      options: JSON.stringify(OcrOptions.parse({})),
      progress: 0.3,
      attempts: 1,
      created_at: now,
      started_at: now,
      updated_at: now,
    });
    const row = await findJobById(db, id);
    if (!row) throw new Error('job not inserted');
    await storeJobPage(db, clock, row, {
      image_source: null,
      page_number: 2,
      source: 'text_layer',
      unit: 'pdf_points',
      width: 540,
      height: 720,
      rotation: 90,
      text: 'stored by the first attempt',
      words: [],
      mean_confidence: null,
      text_layer_chars: 23,
      dpi: null,
      reason: 'text_layer',
      timings_ms: { render: 0, recognize: 0, total: 0 },
    });
    await db.transaction().execute((trx) => recoverInterruptedJobs(trx, clock, 3));

    const job = await waitForJob(instance, String(id));
    const result = ocrResultOf(job);
    expect(job.attempts).toBe(2);
    expect(result.pages.map((page) => [page.page_number, page.resumed, page.reason, page.ms === null])).toEqual([
      [1, false, 'text_layer', false],
      [2, true, null, true],
      [3, false, 'text_layer', false],
    ]);
    const pages = await storedPages(admin, documentId);
    expect(pages.map((page) => page.page_number)).toEqual([1, 2, 3]);
    expect(pageNumber(pages, 2).text).toBe('stored by the first attempt');
    const stores = (await auditOf(instance, 'document', documentId)).filter((record) => record.action === 'document_page.store');
    expect(stores.map((record) => (JSON.parse(record.details ?? '{}') as { page_number: number }).page_number).sort()).toEqual([1, 2, 3]);
  }, 60_000);

  it('reads with the fast model by default and with the best model when asked; each result names its model', async () => {
    const image = scanImage({ widthPx: 1500, heightPx: 420, lines: proseLines(41, 4, 42), fontPx: 42, marginPx: 60 });
    const documentId = await uploadFile(instance, 'models.png', image.png);
    const fast = ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, documentId)).id));
    expect(fast.model).toBe('fast');
    expect(fast.engine).toMatch(/^tesseract\.js \S+, eng tessdata_fast 4\.1\.0$/);
    expectRecognised((await storedPages(admin, documentId))[0]!, image.truth);
    const best = ocrResultOf(await waitForJob(instance, (await startOcrJob(instance, documentId, { model: 'best' })).id));
    expect(best.model).toBe('best');
    expect(best.engine).toMatch(/eng 4\.0\.0_best_int$/);
    expectRecognised((await storedPages(admin, documentId))[0]!, image.truth);
  }, 120_000);

  it('validates options; a page the document lacks and an audio document fail the job with a clear message', async () => {
    const { bytes } = await textDocument();
    const documentId = await uploadFile(instance, 'options.pdf', bytes);
    for (const body of [{ dpi: 1000 }, { dpi: 50 }, { language: 'fra' }, { pages: [0] }, { pages: [] }, { force_ocr: 'yes' }, { colour: true }, { model: 'legacy' }]) {
      const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/ocr-jobs`, body });
      errorOf(response, 400, 'validation_error');
    }
    const missing = await waitForJob(instance, (await startOcrJob(instance, documentId, { pages: [3, 9, 12] })).id);
    expect(missing).toMatchObject({ status: 'failed', error_message: 'the ocr job failed: page 9, 12 requested, but the document has 3 pages' });

    const wav = Buffer.alloc(44 + 800);
    wav.write('RIFF', 0, 'latin1');
    wav.writeUInt32LE(wav.length - 8, 4);
    wav.write('WAVEfmt ', 8, 'latin1');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(8000, 24);
    wav.writeUInt32LE(16000, 28);
    wav.writeUInt16LE(2, 32);
    wav.writeUInt16LE(16, 34);
    wav.write('data', 36, 'latin1');
    wav.writeUInt32LE(800, 40);
    const audioId = await uploadFile(instance, 'call.wav', wav);
    const audio = await waitForJob(instance, (await startOcrJob(instance, audioId)).id);
    expect(audio.status).toBe('failed');
    expect(audio.error_message).toMatch(/^the ocr job failed: OCR reads pdf, png, jpeg, tiff documents, not audio; audio and video are read by a transcription job$/);
  }, 60_000);
});

const StatusBody = z.object({
  success: z.literal(true),
  doc_id: z.string(),
  job_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  progress: z.number(),
  error_message: z.string().nullable(),
  data: z.object({ doc_id: z.string(), job_id: z.string(), status: z.string(), progress: z.number(), error_message: z.string().nullable(), job: Job }),
});

const ErrorBody = z.object({ success: z.literal(false), error: z.string().min(1), message: z.string().min(1), code: z.string() });

describe('application API: OCR', () => {
  let instance: TestInstance;
  let scheduler: JobScheduler | undefined;
  let admin: AppClient;
  let clerk: AppClient;

  beforeAll(async () => {
    // No scheduler at first: jobs stay queued until the test starts one.
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    admin = await signInAdmin(instance);
    clerk = await createUserAndSignIn(instance);
  });
  afterAll(async () => {
    await scheduler?.stop();
    await instance.close();
  });

  it('starts OCR, reports the status at the top level and under data, then serves the text', async () => {
    const { bytes, truth } = await textDocument();
    const documentId = await uploadFile(instance, 'app.pdf', bytes);
    const body = { doc_id: documentId, user_id: clerk.userId };

    const none = await clerk.request('GET', `/ocr/text?doc_id=${documentId}&user_id=${clerk.userId}`);
    expect(none.statusCode).toBe(404);
    expect(ErrorBody.parse(none.json())).toMatchObject({ code: 'resource_not_found' });
    const noJob = await clerk.request('POST', '/ocr/latest-status', body);
    expect(noJob.statusCode).toBe(404);
    expect(ErrorBody.parse(noJob.json()).message).toMatch(/no OCR job was started/);

    const started = await clerk.request('POST', '/ocr/status', body);
    expect(started.statusCode, started.body).toBe(202);
    const first = StatusBody.extend({ started: z.literal(true) }).parse(started.json());
    expect(first).toMatchObject({ doc_id: documentId, status: 'queued', data: { status: 'queued', job_id: first.job_id, job: { kind: 'ocr', document_id: documentId } } });

    // Asking again while it waits returns the same job instead of queuing a second one.
    const again = await clerk.request('POST', '/ocr/status', { doc_id: Number(documentId), user_id: Number(clerk.userId) });
    expect(again.statusCode, again.body).toBe(200);
    expect(StatusBody.extend({ started: z.literal(false) }).parse(again.json()).job_id).toBe(first.job_id);

    scheduler = startScheduler(instance.runtime);
    let status = StatusBody.parse((await clerk.request('POST', '/ocr/latest-status', body)).json());
    for (let attempt = 0; status.status !== 'completed' && status.status !== 'failed' && attempt < 600; attempt += 1) {
      expect(['queued', 'running']).toContain(status.status);
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = StatusBody.parse((await clerk.request('POST', '/ocr/latest-status', body)).json());
    }
    expect(status).toMatchObject({ job_id: first.job_id, status: 'completed', progress: 1, data: { status: 'completed', progress: 1 } });

    const text = await clerk.request('GET', `/ocr/text?doc_id=${documentId}&user_id=${clerk.userId}`);
    expect(text.statusCode).toBe(200);
    const pages = z
      .object({ success: z.literal(true), doc_id: z.string(), page_count: z.number(), pages: z.array(z.object({ page_number: z.number(), text: z.string(), source: z.string(), words: z.never().optional() }).loose()) })
      .parse(text.json());
    expect(pages.pages.map((page) => [page.page_number, page.source])).toEqual([
      [1, 'text_layer'],
      [2, 'text_layer'],
      [3, 'text_layer'],
    ]);
    expect(pages.pages[0]?.text).toBe(truth[0]?.text);

    // Once the job ended, a new request starts a new job.
    const rerun = await clerk.request('POST', '/ocr/status', body);
    expect(rerun.statusCode).toBe(202);
    expect(StatusBody.parse(rerun.json()).job_id).not.toBe(first.job_id);
  }, 60_000);

  it('applies the session and user_id rules and answers errors with error and message', async () => {
    const { bytes } = await textDocument();
    const documentId = await uploadFile(instance, 'rules.pdf', bytes);
    const foreignDocument = await uploadFile(instance, 'foreign.pdf', bytes, instance.orgs[1]?.api_key);

    const anonymous = await instance.server.app.inject({ method: 'GET', url: `/ocr/text?doc_id=${documentId}`, headers: { host: instance.host } });
    expect(anonymous.statusCode).toBe(401);
    expect(ErrorBody.parse(anonymous.json()).code).toBe('authentication_failed');

    const otherUser = await clerk.request('POST', '/ocr/status', { doc_id: documentId, user_id: admin.userId });
    expect(otherUser.statusCode).toBe(403);
    expect(ErrorBody.parse(otherUser.json()).code).toBe('permission_denied');
    // An administrator may act for another user.
    const forClerk = await admin.request('POST', '/ocr/latest-status', { doc_id: documentId, user_id: clerk.userId });
    expect(forClerk.statusCode).toBe(404);
    expect(ErrorBody.parse(forClerk.json()).message).toMatch(/no OCR job/);

    for (const [method, url, payload] of [
      ['GET', `/ocr/text?doc_id=${foreignDocument}`, undefined],
      ['POST', '/ocr/status', { doc_id: foreignDocument }],
      ['POST', '/ocr/latest-status', { doc_id: foreignDocument }],
    ] as const) {
      const response = await clerk.request(method, url, payload);
      expect(response.statusCode, url).toBe(404);
      expect(ErrorBody.parse(response.json()).message).toBe('document not found');
    }
    const invalid = await clerk.request('POST', '/ocr/status', { doc_id: 'abc' });
    expect(invalid.statusCode).toBe(400);
    expect(ErrorBody.parse(invalid.json()).code).toBe('validation_error');
    const badOptions = await clerk.request('POST', '/ocr/status', { doc_id: documentId, options: { dpi: 5000 } });
    expect(badOptions.statusCode).toBe(400);
    expect(ErrorBody.parse(badOptions.json()).message).toBe('invalid ocr options');
  });

  it('reports engine readiness and the language data', async () => {
    const response = await clerk.request('GET', '/ocr/health');
    expect(response.statusCode).toBe(200);
    const health = z
      .object({
        success: z.literal(true),
        status: z.literal('ok'),
        ready: z.literal(true),
        engine: z.object({ name: z.literal('tesseract.js'), version: z.string() }).loose(),
        languages: z.array(z.object({ code: z.literal('eng'), model: z.enum(['fast', 'best']), variant: z.string(), present: z.literal(true), size: z.number().min(1_000_000) })),
        problems: z.array(z.string()).length(0),
        default_dpi: z.literal(300),
      })
      .loose()
      .parse(response.json());
    expect(health.languages.map((language) => [language.model, language.variant])).toEqual([
      ['fast', 'tessdata_fast 4.1.0'],
      ['best', '4.0.0_best_int'],
    ]);
    const anonymous = await instance.server.app.inject({ method: 'GET', url: '/ocr/health', headers: { host: instance.host } });
    expect(anonymous.statusCode).toBe(401);
  });
});
