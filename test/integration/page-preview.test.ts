import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin, type AppClient } from '../helpers/app-session.js';
import { exportFile, startExportHarness, textPagesPdf, type Harness } from '../helpers/export-fixtures.js';
import { darkShare, pdftotext, renderGray, userRectToPixels, type Rect } from '../helpers/pdf-tools.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';
import { withhold } from '../helpers/release-support.js';

// "Preview as released" (GET /api/documents/{id}/pages/{n}/preview): the page the export would release, made by
// the export's own burn and assembly on a real worker pool; compared here with the exported file by poppler.
// Needs npm run build:main (the pool loads the worker from dist/).

const DPI = 72;
const VIEW: Rect = { x1: 0, y1: 0, x2: 612, y2: 792 };

/** Pixels (grey levels 0–255) that differ by more than `tolerance` between two renderings of equal size. */
function differing(a: { width: number; height: number; pixels: Uint8Array }, b: { width: number; height: number; pixels: Uint8Array }, tolerance = 32): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let count = 0;
  for (let index = 0; index < a.pixels.length; index += 1) if (Math.abs((a.pixels[index] ?? 0) - (b.pixels[index] ?? 0)) > tolerance) count += 1;
  return count;
}

describe('preview as released', () => {
  let harness: Harness;
  let admin: AppClient;
  let other: AppClient;
  let documentId: string;
  let source: Buffer;
  let box: Rect;
  let caseId: string;

  beforeAll(async () => {
    harness = await startExportHarness({ organizations: 2 });
    admin = await signInAdmin(harness.instance);
    other = await signInAdmin(harness.instance, 1);
    ({ bytes: source, box } = await textPagesPdf(3));
    caseId = await createCase(harness.instance, 'Preview');
    const [document] = await uploadDocuments(harness.instance, caseId, [{ name: 'minutes.pdf', bytes: source }]);
    documentId = document?.id ?? '';
    await createBoxes(harness.instance, documentId, [rect({ coordinates: { page: 2, units: 'pdf_points', box } })]);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  async function preview(page: number | string, client: AppClient = admin) {
    return client.request('GET', `/api/documents/${documentId}/pages/${page}/preview`);
  }

  it('the previewed page is black in the box, and equals the exported page everywhere', async () => {
    const answer = await preview(2);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const bytes = answer.rawPayload;
    const shown = renderGray(bytes, 1, DPI);
    const pixels = userRectToPixels(box, VIEW, 0, DPI);
    expect(darkShare(renderGray(source, 2, DPI), pixels)).toBeLessThan(0.5);
    expect(darkShare(shown, pixels)).toBeGreaterThan(0.75);

    const { bytes: exported } = await exportFile(harness.instance, { case_id: caseId });
    expect(differing(shown, renderGray(exported, 2, DPI))).toBe(0);
    expect(pdftotext(bytes)).toBe(pdftotext(exported, { page: 2 }));
    // The first word of the page lay under the box: gone from the preview's text, still in the source.
    expect(pdftotext(source, { page: 2 })).toMatch(/^request/);
    expect(pdftotext(bytes)).not.toMatch(/^request/);
  }, 120_000);

  it('a page without boxes is previewed as it is copied: equal to the source', async () => {
    const answer = await preview(1);
    expect(answer.statusCode).toBe(200);
    expect(differing(renderGray(answer.rawPayload, 1, DPI), renderGray(source, 1, DPI))).toBe(0);
  }, 60_000);

  it('refuses pages that do not exist, page numbers that cannot name a page, other organizations and anonymous callers', async () => {
    const missing = await preview(9);
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toContain('has 3 page(s)');
    // Like every id in a path (issue 16's rule), a page number that cannot name a page is not found.
    expect((await preview(0)).statusCode).toBe(404);
    expect((await preview('two')).statusCode).toBe(404);
    expect((await preview(1, other)).statusCode).toBe(404);
    const anonymous = await harness.instance.server.app.inject({ method: 'GET', url: `/api/documents/${documentId}/pages/1/preview`, headers: { host: harness.instance.host } });
    expect(anonymous.statusCode).toBe(401);
  }, 60_000);

  it('a page withheld in full is previewed as the placeholder page the requester gets, without its text', async () => {
    await withhold(harness.instance, caseId, { document_id: documentId, pages: { from: 3, to: 3 }, exemption: '(b)(6)' });
    const answer = await preview(3);
    expect(answer.statusCode).toBe(200);
    const text = pdftotext(answer.rawPayload);
    expect(text).toContain('Withheld in full under (b)(6)');
    expect(text).toContain('Page 3 of this document');
    expect(pdftotext(source, { page: 3 })).toMatch(/memorandum/);
    expect(text).not.toMatch(/memorandum|records|request/);
    // The other pages are previewed as before.
    expect(pdftotext((await preview(1)).rawPayload)).toMatch(/records/);
  }, 60_000);
});
