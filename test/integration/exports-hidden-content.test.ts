import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job, type ScanResult } from '../../main/common/schemas/jobs.js';
import { ReleaseSettings } from '../../main/common/schemas/releases.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { hiddenLayerPdf, NOTE, type AdversarialPdf } from '../helpers/adversarial-pdfs.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext } from '../helpers/pdf-tools.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { auditOf, dataOf, errorOf, orgId } from '../helpers/integration-support.js';
import { unzipAll } from '../helpers/release-support.js';
import { createBoxes, keyWithScopes, rect } from '../helpers/v1-redactions-support.js';

// Hidden content never travels (issue 25): a note in an optional-content layer that is off ("Internal notes",
// made by pdfTeX) is reported by the scan with its text, left out of every release whatever the organization
// says, and kept only in internal review copies when the organization's setting is keep, which the summary,
// manifest and README then say. Read back with poppler's pdftotext and Info-ZIP's unzip.

/** The words of the hidden note that appear nowhere else in the source. */
const HIDDEN_WORDS = 'prior conviction';

async function scanOf(h: Harness, documentId: string): Promise<ScanResult> {
  const job = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs` }), Job, 202);
  for (let tries = 0; tries < 1200; tries += 1) {
    const current = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/jobs/${job.id}` }), Job);
    if (current.status === 'completed') return current.result as unknown as ScanResult;
    if (current.status === 'failed') throw new Error(current.error_message ?? 'scan failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the scan did not finish');
}

async function setHidden(h: Harness, value: 'keep' | 'remove', key?: string) {
  return h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { hidden_content_in_review_copies: value }, ...(key && { key }) });
}

/** The text of every PDF of a zip (by name) and its text files. */
function zipped(bytes: Buffer) {
  const files = unzipAll(bytes);
  const reviewCopies = [...files.keys()].filter((name) => name.startsWith('INTERNAL-review-copy-'));
  return { files, reviewCopies, text: (name: string) => pdftotext(files.get(name) as Buffer).replace(/\s+/g, ' ') };
}

describe('hidden content: scan, releases, review copies', () => {
  let h: Harness;
  let scheduler: JobScheduler;
  let caseId: string;
  let documentId: string;
  let pdf: AdversarialPdf;

  beforeAll(async () => {
    h = await startExportHarness();
    scheduler = startScheduler(h.instance.runtime, { pool: h.pool });
    pdf = await hiddenLayerPdf();
    caseId = await createCase(h.instance, 'Hidden content');
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'permit.pdf', bytes: pdf.bytes }]);
    documentId = document?.id ?? '';
    // The visible "Vashti" is boxed: the page is redacted, its hidden note (which repeats the name) is not boxed.
    const { x1, y1, x2, y2 } = pdf.box;
    await createBoxes(h.instance, documentId, [rect({ coordinates: { page: 1, units: 'pdf_points', box: { x1: x1 - 1, y1: y1 - 1, x2: x2 + 1, y2: y2 + 1 } } })]);
  }, 120_000);
  afterAll(async () => {
    await scheduler.stop();
    await h.close();
  });

  it('the scan reports the layer that is off, where it lies and what it says', async () => {
    const result = await scanOf(h, documentId);
    const hidden = result.pdf?.pages[0]?.hidden_content ?? [];
    expect(hidden.map((entry) => entry.kind)).toEqual(['optional-content']);
    const [entry] = hidden;
    expect(entry?.glyphs).toBeGreaterThan(20);
    expect(entry?.x2).toBeGreaterThan(entry?.x1 ?? Infinity);
    expect(entry?.text?.replace(/\s+/g, ' ')).toBe(NOTE);
    expect(result.findings.map((finding) => finding.code)).toContain('hidden_content');
  }, 120_000);

  it('the setting is remove by default, needs roles:write to change, and each change is audited', async () => {
    expect(dataOf(await h.instance.request({ method: 'GET', url: '/api/v1/release-settings' }), ReleaseSettings).hidden_content_in_review_copies).toBe('remove');
    const reader = await keyWithScopes(h.instance, ['exports:read', 'exports:write', 'cases:read']);
    errorOf(await setHidden(h, 'keep', reader), 403, 'permission_denied');
    expect(dataOf(await h.instance.request({ method: 'GET', url: '/api/v1/release-settings', key: reader }), ReleaseSettings).hidden_content_in_review_copies).toBe('remove');
    errorOf(await h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { hidden_content_in_review_copies: 'always' } }), 400, 'validation_error');
    const before = (await auditOf(h.instance, 'release_settings', String(orgId(h.instance)))).length;
    expect(dataOf(await setHidden(h, 'keep'), ReleaseSettings).hidden_content_in_review_copies).toBe('keep');
    const records = await auditOf(h.instance, 'release_settings', String(orgId(h.instance)));
    expect(records).toHaveLength(before + 1);
    const details = JSON.parse(records.at(-1)?.details ?? '{}') as Record<string, unknown>;
    expect(details.hidden_content_in_review_copies).toEqual({ before: 'remove', after: 'keep' });
    expect(dataOf(await setHidden(h, 'remove'), ReleaseSettings).hidden_content_in_review_copies).toBe('remove');
  }, 60_000);

  it('review copies are internal only', async () => {
    for (const body of [
      { case_id: caseId, format: 'zip', options: { review_copies: true } },
      { case_id: caseId, format: 'pdf', options: { review_copies: true } },
    ]) {
      const error = errorOf(await h.instance.request({ method: 'POST', url: '/api/v1/exports', body }), 400, 'validation_error');
      expect(JSON.stringify(error)).toContain('options.review_copies');
    }
  });

  it.each(['remove', 'keep'] as const)('with the setting %s, the release pdf and release zip lack the hidden note; the review copy keeps it only with keep', async (setting) => {
    expect(dataOf(await setHidden(h, setting), ReleaseSettings).hidden_content_in_review_copies).toBe(setting);
    const release = await exportFile(h.instance, { case_id: caseId, format: 'pdf' });
    const releaseText = pdftotext(release.bytes).replace(/\s+/g, ' ');
    expect(releaseText).toContain('asked for the permit file.');
    expect(releaseText).not.toContain(HIDDEN_WORDS);
    expect(releaseText).not.toContain(pdf.secret);
    expect(release.exported.summary?.hidden_content).toBeUndefined();

    const releaseZip = zipped((await exportFile(h.instance, { case_id: caseId, format: 'zip' })).bytes);
    expect(releaseZip.reviewCopies).toEqual([]);
    const releasePdf = [...releaseZip.files.keys()].find((name) => name.startsWith('documents/')) ?? '';
    expect(releaseZip.text(releasePdf)).toContain('asked for the permit file.');
    expect(releaseZip.text(releasePdf)).not.toContain(HIDDEN_WORDS);

    const internal = await exportFile(h.instance, { case_id: caseId, format: 'zip', options: { audience: 'internal', review_copies: true } });
    const zip = zipped(internal.bytes);
    expect(zip.reviewCopies).toEqual(['INTERNAL-review-copy-001-permit.pdf']);
    const copy = zip.text('INTERNAL-review-copy-001-permit.pdf');
    expect(copy).toContain('asked for the permit file.');
    expect(copy).toContain('INTERNAL REVIEW COPY - NOT FOR RELEASE - page 1');
    const manifest = JSON.parse(zip.files.get('manifest.json')?.toString('utf8') ?? '{}') as { audience: string; review_copies?: { files: string[]; hidden_content: { kept: boolean; pages: unknown[] } } };
    const readme = zip.files.get('INTERNAL-README.txt')?.toString('utf8') ?? '';
    expect(manifest.audience).toBe('internal');
    expect(manifest.review_copies?.files).toEqual(['INTERNAL-review-copy-001-permit.pdf']);
    expect(internal.exported.summary?.verification?.files).toBe(1);
    if (setting === 'keep') {
      expect(copy).toContain(HIDDEN_WORDS);
      const kept = { kept: true, pages: [{ document_id: documentId, page: 1 }] };
      expect(internal.exported.summary?.hidden_content).toEqual(kept);
      expect(manifest.review_copies?.hidden_content).toEqual(kept);
      expect(readme).toContain('HIDDEN CONTENT KEPT');
      expect(readme).toContain(`document ${documentId} page 1`);
    } else {
      expect(copy).not.toContain(HIDDEN_WORDS);
      expect(copy).not.toContain(pdf.secret);
      expect(internal.exported.summary?.hidden_content).toEqual({ kept: false, pages: [] });
      expect(manifest.review_copies?.hidden_content).toEqual({ kept: false, pages: [] });
      expect(readme).toContain('Hidden content removed');
      expect(readme).not.toContain('HIDDEN CONTENT KEPT');
    }
    // The boxed copy of the name stays withheld in the review copy too: only the note (which repeats it) is kept.
    const nameCount = copy.split(pdf.secret).length - 1;
    expect(nameCount).toBe(setting === 'keep' ? 1 : 0);
  }, 240_000);
});
