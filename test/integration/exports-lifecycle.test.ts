import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadUrl } from '../../main/common/schemas/documents.js';
import { Export } from '../../main/common/schemas/exports.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import {
  dataOf,
  detailFields,
  errorOf,
  eventsOf,
  getUrl,
  keyOf,
  pageOf,
  sha256,
} from '../helpers/integration-support.js';
import { createBox, keyWithScopes, rect } from '../helpers/v1-redactions-support.js';
import { downloadExport, readExport, requestExport, startExportHarness, textPagesPdf, waitForExport, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext } from '../helpers/pdf-tools.js';

// Every row of the spec's Export state table, through the real API, runner, pool and blob store.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('exports: requests', () => {
  let h: Harness;
  let caseId: string;
  let documentId: string;

  beforeAll(async () => {
    h = await startExportHarness({ runner: false });
    caseId = await createCase(h.instance, 'Requests case');
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'one.pdf', bytes: minimalPdf('Alpha line') }]);
    documentId = document?.id ?? '';
  });
  afterAll(async () => {
    await h.close();
  });

  it('POST /exports: 202 pending with filters and options resolved; export.created written', async () => {
    const response = await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId } });
    const created = dataOf(response, Export, 202);
    expect(created).toMatchObject({
      case_id: caseId,
      format: 'pdf',
      status: 'pending',
      progress: 0,
      attempts: 0,
      error_message: null,
      file: null,
      summary: null,
      filters: { document_ids: null, layers: ['B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7'], include_pending: false, document_statuses: ['active'] },
      options: { cover_sheet: false, dpi: 200, padding: 1, labels: true, image_mode: 'auto', jpeg_quality: 80, method: 'auto' },
    });
    expect(created.filters.case_statuses).not.toContain('deleted');
    expect((await eventsOf(h.instance, 'export', created.id)).map((event) => event.type)).toEqual(['export.created']);
    const csv = await requestExport(h.instance, { case_id: caseId, format: 'csv', filters: { document_ids: [documentId], layers: ['B6'], include_pending: true } });
    expect(csv).toMatchObject({ format: 'csv', options: {}, filters: { document_ids: [documentId], layers: ['B6'], include_pending: true } });
  });

  it('bad bodies answer 400 naming the field; a missing Idempotency-Key 400', async () => {
    const post = (body: unknown) => h.instance.request({ method: 'POST', url: '/api/v1/exports', body });
    const field = async (body: unknown) => detailFields(errorOf(await post(body), 400, 'validation_error'));
    expect(await field({})).toContain('case_id');
    expect(await field({ case_id: 'abc' })).toContain('case_id');
    expect(await field({ case_id: caseId, format: 'docx' })).toContain('format');
    expect(await field({ case_id: caseId, filters: { colour: 'red' } })).toEqual(expect.arrayContaining([expect.stringMatching(/^filters/)]));
    expect(await field({ case_id: caseId, filters: { layers: ['B9'] } })).toContain('filters.layers.0');
    expect(await field({ case_id: caseId, filters: { layers: [] } })).toContain('filters.layers');
    expect(await field({ case_id: caseId, filters: { include_pending: 'yes' } })).toContain('filters.include_pending');
    expect(await field({ case_id: caseId, filters: { document_statuses: ['archived'] } })).toContain('filters.document_statuses.0');
    expect(await field({ case_id: caseId, filters: { case_statuses: ['done'] } })).toContain('filters.case_statuses.0');
    expect(await field({ case_id: caseId, filters: { document_ids: [documentId, documentId] } })).toContain('filters.document_ids');
    expect(await field({ case_id: caseId, options: { dpi: 10 } })).toContain('options.dpi');
    expect(await field({ case_id: caseId, options: { padding: -1 } })).toContain('options.padding');
    expect(await field({ case_id: caseId, options: { method: 'vector' } })).toContain('options.method');
    expect(await field({ case_id: caseId, format: 'csv', options: { dpi: 200 } })).toEqual(['options']);
    expect(await field({ case_id: caseId, format: 'zip', options: { cover_sheet: true } })).toEqual(['options.cover_sheet']);
    const otherCase = await createCase(h.instance, 'Another case');
    const [foreign] = await uploadDocuments(h.instance, otherCase, [{ name: 'x.pdf', bytes: minimalPdf('x') }]);
    expect(await field({ case_id: caseId, filters: { document_ids: [foreign?.id] } })).toEqual(['filters.document_ids.0']);
    const missingKey = await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId }, idempotencyKey: null });
    expect(detailFields(errorOf(missingKey, 400, 'validation_error'))).toEqual(['Idempotency-Key']);
  });

  it('a case outside the organization is 404; a case status the filters exclude is 409 conflict', async () => {
    errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: '999999' } }), 404, 'resource_not_found');
    const foreignCase = await createCase(h.instance, 'Org 2 case', keyOf(h.instance, 1));
    errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: foreignCase } }), 404, 'resource_not_found');
    const error = errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId, filters: { case_statuses: ['approved'] } } }), 409, 'conflict');
    expect(error.details).toMatchObject({ status: 'open' });
    const deleted = await createCase(h.instance, 'Deleted case');
    expect((await h.instance.request({ method: 'DELETE', url: `/api/v1/cases/${deleted}` })).statusCode).toBe(204);
    errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: deleted } }), 409, 'conflict');
    dataOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: deleted, format: 'json', filters: { case_statuses: ['deleted'] } } }), Export, 202);
  });

  it('scopes: exports:write to create, cancel and retry; exports:read to read, list and get URLs; other orgs see 404', async () => {
    const reader = await keyWithScopes(h.instance, ['exports:read']);
    const writer = await keyWithScopes(h.instance, ['exports:write']);
    errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId }, key: reader }), 403, 'permission_denied');
    const created = await requestExport(h.instance, { case_id: caseId }, writer);
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}`, key: writer }), 403, 'permission_denied');
    errorOf(await h.instance.request({ method: 'GET', url: '/api/v1/exports', key: writer }), 403, 'permission_denied');
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}/download-url`, key: writer }), 403, 'permission_denied');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/cancel`, key: reader }), 403, 'permission_denied');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/retry`, key: reader }), 403, 'permission_denied');
    dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}`, key: reader }), Export);
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}`, key: keyOf(h.instance, 1) }), 404, 'resource_not_found');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/cancel`, key: keyOf(h.instance, 1) }), 404, 'resource_not_found');
    const otherList = pageOf(await h.instance.request({ method: 'GET', url: '/api/v1/exports', key: keyOf(h.instance, 1) }), Export);
    expect(otherList.data.map((item) => item.id)).not.toContain(created.id);
  });

  it('GET /exports: newest first, paginated by cursor without gaps or repeats', async () => {
    const made: string[] = [];
    for (let index = 0; index < 5; index += 1) made.push((await requestExport(h.instance, { case_id: caseId, format: 'json' })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await h.instance.request({ method: 'GET', url: `/api/v1/exports?limit=2${cursor ? `&cursor=${cursor}` : ''}` });
      const page: { data: Export[]; cursor: string | null } = pageOf(response, Export);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((item) => item.id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual([...seen].sort((a, b) => Number(b) - Number(a)));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 5)).toEqual([...made].reverse());
    errorOf(await h.instance.request({ method: 'GET', url: '/api/v1/exports?cursor=bogus' }), 400, 'validation_error');
  });

  it('an Idempotency-Key replay returns the same export and creates no second one', async () => {
    const key = `export-${Date.now()}`;
    const first = await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId, format: 'csv' }, idempotencyKey: key });
    const again = await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId, format: 'csv' }, idempotencyKey: key });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // A replay is the stored answer byte for byte, request_id included.
    expect(again.body).toBe(first.body);
    expect(Export.parse((JSON.parse(again.body) as { data: unknown }).data).id).toBe(dataOf(first, Export, 202).id);
    errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body: { case_id: caseId, format: 'json' }, idempotencyKey: key }), 409, 'idempotency_key_reused');
  });

  it('pending → cancel: cancelled, export.cancelled; then neither cancel nor retry nor download applies (409)', async () => {
    const created = await requestExport(h.instance, { case_id: caseId });
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}/download-url` }), 409, 'conflict');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/retry` }), 409, 'conflict');
    const cancelled = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/cancel` }), Export);
    expect(cancelled).toMatchObject({ status: 'cancelled', file: null });
    expect(cancelled.finished_at).not.toBeNull();
    expect((await eventsOf(h.instance, 'export', created.id)).map((event) => event.type)).toEqual(['export.created', 'export.cancelled']);
    const again = errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/cancel` }), 409, 'conflict');
    expect(again.details).toMatchObject({ status: 'cancelled', allowed_statuses: ['pending', 'processing'] });
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/retry` }), 409, 'conflict');
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}/download-url` }), 409, 'conflict');
    // A cancelled export is never picked up.
    await h.startRunner();
    await sleep(600);
    expect((await readExport(h.instance, created.id)).status).toBe('cancelled');
    await h.stopRunner();
  });
});

describe('exports: background work', () => {
  let h: Harness;
  let caseId: string;
  let documentId: string;
  const pdf = minimalPdf('Visible line Secretword');

  beforeAll(async () => {
    h = await startExportHarness();
    caseId = await createCase(h.instance, 'Lifecycle case');
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'memo.pdf', bytes: pdf }]);
    documentId = document?.id ?? '';
    // minimalPdf draws its text at (72, 700) in 24 pt Helvetica: "Secretword" spans about x 198 to 320.
    await createBox(h.instance, documentId, rect({ coordinates: { page: 1, units: 'pdf_points', box: { x1: 192, y1: 690, x2: 330, y2: 726 } } }));
  });
  afterAll(async () => {
    await h.close();
  });

  it('processing → completed: export.completed with the file; each download-url call is a new single-use URL', async () => {
    const created = await requestExport(h.instance, { case_id: caseId });
    const done = await waitForExport(h.instance, created.id);
    expect(done).toMatchObject({ status: 'completed', progress: 1, attempts: 1, error_message: null });
    expect(done.started_at).not.toBeNull();
    expect(done.file).toMatchObject({ name: `case-${caseId}-export-${created.id}.pdf`, media_type: 'application/pdf' });
    const events = await eventsOf(h.instance, 'export', created.id);
    expect(events.map((event) => event.type)).toEqual(['export.created', 'export.completed']);
    expect(Export.parse(events[1]?.payload.export)).toMatchObject({ id: created.id, status: 'completed' });

    const first = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}/download-url` }), DownloadUrl);
    const second = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}/download-url` }), DownloadUrl);
    expect(first.url).not.toBe(second.url);
    const file = await getUrl(h.instance, first.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain(`case-${caseId}-export-${created.id}.pdf`);
    expect(sha256(file.rawPayload)).toBe(done.file?.sha256);
    const text = pdftotext(file.rawPayload);
    expect(text).toContain('Visible');
    expect(text).not.toContain('Secretword');
    errorOf(await getUrl(h.instance, first.url), 404, 'resource_not_found');
    expect((await getUrl(h.instance, second.url)).statusCode).toBe(200);
    // A completed export cannot be cancelled or retried.
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/cancel` }), 409, 'conflict');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/retry` }), 409, 'conflict');
  });

  it('processing → failed with the reason, export.failed; retry → pending → completed once the cause is fixed', async () => {
    const blob = h.instance.runtime.blobs.pathFor(sha256(pdf));
    const saved = fs.readFileSync(blob);
    fs.rmSync(blob);
    try {
      const created = await requestExport(h.instance, { case_id: caseId });
      const failed = await waitForExport(h.instance, created.id);
      expect(failed.status).toBe('failed');
      expect(failed.error_message).toBe(`the export failed: the stored file of document ${documentId} cannot be read`);
      expect(failed.file).toBeNull();
      expect((await eventsOf(h.instance, 'export', created.id)).map((event) => event.type)).toEqual(['export.created', 'export.failed']);
      errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${created.id}/download-url` }), 409, 'conflict');
      errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/cancel` }), 409, 'conflict');

      fs.writeFileSync(blob, saved);
      const retried = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${created.id}/retry` }), Export, 202);
      expect(retried).toMatchObject({ status: 'pending', attempts: 0, error_message: null, progress: 0 });
      const done = await waitForExport(h.instance, created.id);
      expect(done).toMatchObject({ status: 'completed', attempts: 1 });
      expect((await eventsOf(h.instance, 'export', created.id)).map((event) => event.type)).toEqual(['export.created', 'export.failed', 'export.retried', 'export.completed']);
      expect(pdftotext((await downloadExport(h.instance, created.id)).bytes)).not.toContain('Secretword');
    } finally {
      if (!fs.existsSync(blob)) fs.writeFileSync(blob, saved);
    }
  });

  it('a case that left the allowed statuses before the work started fails with the reason', async () => {
    await h.stopRunner();
    const otherCase = await createCase(h.instance, 'Moving case');
    const created = await requestExport(h.instance, { case_id: otherCase, format: 'csv', filters: { case_statuses: ['open'] } });
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/cases/${otherCase}/actions`, body: { action: 'start' } })).statusCode).toBe(200);
    await h.startRunner();
    const failed = await waitForExport(h.instance, created.id);
    expect(failed).toMatchObject({ status: 'failed', error_message: 'the export cannot run: the case is in_progress; filters.case_statuses allows open' });
  });

  it('processing → cancel: cancelled at once, the running worker tasks stop, nothing is stored, the runner moves on', async () => {
    const { bytes, box } = await textPagesPdf(60);
    const bigCase = await createCase(h.instance, 'Big case');
    const [big] = await uploadDocuments(h.instance, bigCase, [{ name: 'big.pdf', bytes }]);
    const items = Array.from({ length: 60 }, (_, index) => rect({ coordinates: { page: index + 1, units: 'pdf_points', box: box } }));
    const created = await h.instance.request({ method: 'POST', url: `/api/v1/documents/${big?.id ?? ''}/redactions`, body: { redactions: items } });
    expect(created.statusCode).toBe(201);
    const blobsBefore = await h.instance.runtime.db.selectFrom('blobs').select('sha256').execute();

    // Rendered pages at 300 dpi: slow enough to be cancelled while processing.
    const slow = await requestExport(h.instance, { case_id: bigCase, options: { dpi: 300, image_mode: 'color', method: 'raster' } });
    const processing = await waitForExport(h.instance, slow.id, ['processing', 'completed', 'failed']);
    expect(processing.status).toBe('processing');
    errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/exports/${slow.id}/download-url` }), 409, 'conflict');
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${slow.id}/retry` }), 409, 'conflict');
    // Let the worker threads get going.
    await sleep(700);
    const cancelled = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/exports/${slow.id}/cancel` }), Export);
    expect(cancelled.status).toBe('cancelled');
    const cancelledAt = Date.now();

    // With one export at a time, the next one can only run once the cancelled work has stopped.
    const quick = await requestExport(h.instance, { case_id: caseId, format: 'csv' });
    const quickDone = await waitForExport(h.instance, quick.id);
    expect(quickDone.status).toBe('completed');
    expect(Date.now() - cancelledAt, 'the next export waited for the cancelled work').toBeLessThan(5000);

    await sleep(300);
    const after = await readExport(h.instance, slow.id);
    expect(after).toMatchObject({ status: 'cancelled', file: null, summary: null });
    expect((await eventsOf(h.instance, 'export', slow.id)).map((event) => event.type)).toEqual(['export.created', 'export.cancelled']);
    const blobsAfter = await h.instance.runtime.db.selectFrom('blobs').select('sha256').execute();
    expect(blobsAfter.length).toBe(blobsBefore.length + 1); // the CSV only
    const leftovers = fs.readdirSync(h.instance.runtime.blobs.tempDir).filter((name) => name.startsWith(`export-${slow.id}-`));
    expect(leftovers).toEqual([]);
  }, 120_000);
});
