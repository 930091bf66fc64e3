import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { downloadExport, startExportHarness, waitForExport, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext, qpdfCheck, qpdfExpanded } from '../helpers/pdf-tools.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { errorOf } from '../helpers/integration-support.js';
import { approveCase, drawerKey, exportOf, pagesPdf, parseCsv, postExport, unzipAll, withhold, wordBoxes } from '../helpers/release-support.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';

// The requester's zip read back with unzip, pdftotext and qpdf: stamps in a grown margin, numbering across
// documents, placeholders for pages withheld in full, the index citing the stamps, the cover letter, the
// manifest's hashes, and a supplemental release that continues the numbers and says what changed.
// Needs the compiled worker (npm run build:main).

const LOG_PAGES = 34;

function sha(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function pdfinfoPages(bytes: Buffer): string {
  return execFileSync('pdfinfo', ['-f', '1', '-l', '3', '-box', '-'], { input: bytes, encoding: 'utf8' });
}

describe('release package', () => {
  let h: Harness;
  let caseId: string;
  let drawer: string;
  let memoId: string;
  let first: Map<string, Buffer>;

  beforeAll(async () => {
    h = await startExportHarness({ safeguards: true });
    drawer = await drawerKey(h.instance);
    caseId = await createCase(h.instance, 'Blackwater internal matter', drawer);
    const request = (method: 'PATCH', url: string, body: unknown) => h.instance.request({ method, url, body });
    expect((await request('PATCH', `/api/v1/cases/${caseId}/release-details`, { request_number: 'FOIA-2026-0042', requester_title: 'Records about the 2025 road contract' })).statusCode).toBe(200);
    expect((await request('PATCH', '/api/v1/release-settings', { categories: { in_full: 'entire page' }, justifications: { '(b)(6)': 'Names and numbers of private individuals; release would invade their privacy.' } })).statusCode).toBe(200);
    const memo = await pagesPdf([['Memo KEEPALPHA', 'HIDEWITNESS'], ['HIDEPHONE', 'KEEPBETA'], ['WITHHELDPAGEWORD only here']]);
    const annex = await pagesPdf([['ANNEXONEWORD'], ['ANNEXTWOWORD']]);
    const log = await pagesPdf(Array.from({ length: LOG_PAGES }, (_, index) => [`Entry ${index + 1} KEEPLOG`, `HIDELOG${index + 1}`]));
    const documents = await uploadDocuments(h.instance, caseId, [{ name: 'memo.pdf', bytes: memo }, { name: 'annex.pdf', bytes: annex }, { name: 'log.pdf', bytes: log }], drawer);
    memoId = documents[0]?.id ?? '';
    const [annexId, logId] = [documents[1]?.id ?? '', documents[2]?.id ?? ''];
    const line2 = { x1: 68, y1: 675, x2: 180, y2: 693 };
    const line1 = { x1: 68, y1: 695, x2: 160, y2: 713 };
    await createBoxes(h.instance, memoId, [rect({ layer: 'B7', reason: '(b)(7)(C) witness statement', coordinates: { page: 1, units: 'pdf_points', box: line2 } })], drawer);
    const [phone] = await createBoxes(h.instance, memoId, [rect({ state: 'pending', pending_reason: { entity: 'phone', score: 0.9 }, coordinates: { page: 2, units: 'pdf_points', box: line1 } })], drawer);
    const accepted = await h.instance.request({ method: 'POST', url: `/api/v1/documents/${memoId}/review-decisions`, body: { decisions: [{ redaction_id: phone?.id, decision: 'accept' }] }, key: drawer });
    expect(accepted.statusCode).toBe(201);
    await createBoxes(h.instance, logId, Array.from({ length: LOG_PAGES }, (_, index) => rect({ reason: 'name in log', coordinates: { page: index + 1, units: 'pdf_points', box: line2 } })), drawer);
    await withhold(h.instance, caseId, { document_id: memoId, pages: { from: 3, to: 3 }, exemption: '(b)(6)', category: "=cmd|' /C calc'!A0" }, drawer);
    await withhold(h.instance, caseId, { document_id: annexId, exemption: '(b)(5)' }, drawer);
    await approveCase(h.instance, caseId);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('zip release: stamped PDFs, placeholders, the index (PDF and CSV), the cover letter and a manifest; nothing internal', async () => {
    const queued = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip', options: { stamps: { prefix: 'REL-' }, cover_letter: true } }));
    expect(queued).toMatchObject({ audience: 'release', release_number: null });
    const done = await waitForExport(h.instance, queued.id, ['completed', 'failed'], 120_000);
    expect(done.error_message).toBeNull();
    expect(done).toMatchObject({ status: 'completed', release_number: 1 });
    expect(done.file?.name).toBe(`case-${caseId}-export-${done.id}-release-1.zip`);
    expect(done.summary?.release).toEqual({ bates_first: 'REL-000001', bates_last: `REL-0000${39}`, withheld_in_full_pages: 3, index_rows: 3 + 1 + LOG_PAGES, previous_release: null, new_pages: 0, changed_pages: 0 });
    first = unzipAll((await downloadExport(h.instance, done.id)).bytes);
    expect([...first.keys()].sort()).toEqual(['cover-letter.pdf', 'documents/001-memo.pdf', 'documents/002-annex.pdf', 'documents/003-log.pdf', 'manifest.json', 'withholding-index.csv', 'withholding-index.pdf']);
    for (const [name, bytes] of first) if (name.endsWith('.pdf')) expect(qpdfCheck(bytes), name).toMatch(/No syntax or stream encoding errors/);

    const memo = first.get('documents/001-memo.pdf') as Buffer;
    // Stamps in a margin grown below each page: the page is 22 pt taller and the stamp lies in the new strip.
    expect(pdfinfoPages(memo)).toMatch(/Page\s+1 MediaBox:\s+0\.00\s+-22\.00\s+612\.00\s+792\.00/);
    const stamp = wordBoxes(memo, 1).find((word) => word.word === 'REL-000001');
    expect(stamp).toBeDefined();
    expect(stamp?.yMin ?? 0).toBeGreaterThan(792);
    expect(stamp?.xMin ?? 0).toBeGreaterThan(306);
    // Every original word but the redacted one is where it was, and nothing of the page lies in the strip.
    const page1 = wordBoxes(memo, 1);
    expect(page1.map((word) => word.word)).toEqual(expect.arrayContaining(['Memo', 'KEEPALPHA', '(b)(7)(C)']));
    expect(page1.filter((word) => word.word !== 'REL-000001').every((word) => word.yMax <= 792)).toBe(true);
    expect(pdftotext(memo)).not.toContain('HIDEWITNESS');
    expect(pdftotext(memo, { page: 2 })).toContain('REL-000002');
    // Page 3 withheld in full: a placeholder with its stamp; its words are nowhere in the file, decompressed.
    const page3 = pdftotext(memo, { page: 3 });
    expect(page3).toContain('Withheld in full under (b)(6)');
    expect(page3).toContain('REL-000003');
    expect(qpdfExpanded(memo)).not.toContain('WITHHELDPAGEWORD');
    expect(done.summary?.burn?.rendered.some((entry) => entry.document_id === memoId && entry.page === 3)).toBe(false);
    // The whole annex withheld: one placeholder per page, numbering continues across documents.
    const annex = first.get('documents/002-annex.pdf') as Buffer;
    expect(pdftotext(annex, { page: 1 })).toMatch(/Withheld in full under \(b\)\(5\)[\s\S]*REL-000004/);
    expect(pdftotext(annex, { page: 2 })).toContain('REL-000005');
    expect(qpdfExpanded(annex)).not.toMatch(/ANNEXONEWORD|ANNEXTWOWORD/);
    expect(pdftotext(first.get('documents/003-log.pdf') as Buffer, { page: LOG_PAGES })).toContain('REL-000039');

    // The index cites the stamps; category wording and justification are the organization's; formulas defused.
    const csv = first.get('withholding-index.csv')?.toString('utf8') ?? '';
    expect(csv).toContain('\r\n');
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(['page_reference', 'document', 'exemptions', 'category', 'withheld', 'count', 'since_previous_release', 'justification']);
    expect(rows[1]).toEqual(['REL-000001', 'memo', '(b)(7)(C)', 'withheld information', 'in part', '1', '', '']);
    expect(rows[2]).toEqual(['REL-000002', 'memo', '(b)(6)', 'telephone number', 'in part', '1', '', 'Names and numbers of private individuals; release would invade their privacy.']);
    expect(rows[3]?.slice(0, 6)).toEqual(['REL-000003', 'memo', '(b)(6)', "'=cmd|' /C calc'!A0", 'in full', '1']);
    expect(rows[4]?.slice(0, 6)).toEqual(['REL-000004-REL-000005', 'annex', '(b)(5)', 'entire page', 'in full', '2']);
    expect(rows[5]?.slice(0, 5)).toEqual(['REL-000006', 'log', '(b)(6)', 'withheld information', 'in part']);
    expect(rows.length).toBe(1 + 4 + LOG_PAGES);
    const index = first.get('withholding-index.pdf') as Buffer;
    const indexPages = pdftotext(index).split('\f').filter((page) => page.trim() !== '');
    expect(indexPages.length).toBe(2);
    for (const [position, page] of indexPages.entries()) {
      expect(page).toContain('Page reference');
      expect(page).toContain(`Withholding index, page ${position + 1} of 2`);
    }
    expect(pdftotext(index)).toMatch(/REL-000004-REL-000005[\s\S]*Exemptions cited/);

    // Cover letter: the request number and the requester-facing title, never the internal case name.
    const letter = pdftotext(first.get('cover-letter.pdf') as Buffer);
    expect(letter).toContain('FOIA-2026-0042');
    expect(letter).toContain('Records about the 2025 road contract');
    expect(letter).toContain('REL-000001 to REL-000039');
    expect(letter).not.toContain('Blackwater');

    // The manifest: SHA-256 of every other file, each page's stamp and origin, and the verification.
    const manifest = JSON.parse(first.get('manifest.json')?.toString('utf8') ?? '{}') as {
      files: { path: string; sha256: string; size: number }[];
      pages: { bates: string; withheld_in_full: string | null }[];
      verification: { pages: number; per_page: { bates: string; leak_checked: boolean; certificate: { passed: boolean; words_under_boxes_found: number } | null }[] };
      release_number: number;
    };
    expect(manifest.files.map((file) => file.path).sort()).toEqual([...first.keys()].filter((name) => name !== 'manifest.json').sort());
    for (const file of manifest.files) expect(file.sha256, file.path).toBe(sha(first.get(file.path) as Buffer));
    expect(manifest.release_number).toBe(1);
    expect(manifest.pages.length).toBe(39);
    expect(manifest.pages[2]).toMatchObject({ bates: 'REL-000003', withheld_in_full: '(b)(6)' });
    expect(manifest.verification.per_page.find((page) => page.bates === 'REL-000001')?.leak_checked).toBe(true);
    expect(manifest.verification.per_page.find((page) => page.bates === 'REL-000003')?.leak_checked).toBe(false);
    // The per-page verification certificate of a redacted page travels with it (without internal ids).
    expect(manifest.verification.per_page.find((page) => page.bates === 'REL-000001')?.certificate).toMatchObject({ passed: true, words_under_boxes_found: 0 });
    expect(JSON.stringify(manifest)).not.toMatch(/export_id|case_id|document_id|Blackwater/);
  }, 180_000);

  it('a supplemental release continues the stamps and marks what changed; changes after approval block until re-approved', async () => {
    await createBoxes(h.instance, memoId, [rect({ reason: 'second look', coordinates: { page: 2, units: 'pdf_points', box: { x1: 68, y1: 675, x2: 180, y2: 693 } } })], drawer);
    const blocked = errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip', options: { stamps: { prefix: 'REL-' } } }), 409, 'conflict');
    expect((blocked.details as unknown as { blocks: { check: string }[] }).blocks.map((entry) => entry.check)).toEqual(['changed_after_approval']);
    // The drawer cannot re-approve their own change (issue 26: refused outright).
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/release-approval`, key: drawer }), 409, 'conflict');
    const own = errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip', options: { stamps: { prefix: 'REL-' } } }), 409, 'conflict');
    expect((own.details as unknown as { blocks: { check: string }[] }).blocks.map((entry) => entry.check)).toEqual(['changed_after_approval']);
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/release-approval` })).statusCode).toBe(201);
    const queued = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip', options: { stamps: { prefix: 'REL-' } } }));
    const done = await waitForExport(h.instance, queued.id, ['completed', 'failed'], 120_000);
    expect(done.error_message).toBeNull();
    expect(done.release_number).toBe(2);
    expect(done.summary?.release).toMatchObject({ bates_first: 'REL-000040', bates_last: 'REL-000078', previous_release: 1, new_pages: 0, changed_pages: 1 });
    const second = unzipAll((await downloadExport(h.instance, done.id)).bytes);
    expect(pdftotext(second.get('documents/001-memo.pdf') as Buffer, { page: 1 })).toContain('REL-000040');
    const rows = parseCsv(second.get('withholding-index.csv')?.toString('utf8') ?? '');
    expect(rows.filter((row) => row[0] === 'REL-000041').map((row) => row[6])).toEqual(['changed', 'changed']);
    expect(rows.find((row) => row[0] === 'REL-000040')?.[6]).toBe('unchanged');
    const manifest = JSON.parse(second.get('manifest.json')?.toString('utf8') ?? '{}') as { previous_release: number; pages: { bates: string; since_previous_release: string }[] };
    expect(manifest.previous_release).toBe(1);
    expect(manifest.pages.filter((page) => page.since_previous_release === 'changed').map((page) => page.bates)).toEqual(['REL-000041']);
  }, 180_000);

  it('pdf release: stamps on every page after a cover sheet that shows the requester title, not the case name', async () => {
    const queued = exportOf(await postExport(h.instance, { case_id: caseId, format: 'pdf', filters: { document_ids: [memoId] }, options: { cover_sheet: true, stamps: { prefix: 'P', start: 500, digits: 4, position: 'bottom_left' } } }));
    const done = await waitForExport(h.instance, queued.id, ['completed', 'failed'], 120_000);
    expect(done.error_message).toBeNull();
    const bytes = (await downloadExport(h.instance, done.id)).bytes;
    expect(qpdfCheck(bytes)).toMatch(/No syntax or stream encoding errors/);
    const cover = pdftotext(bytes, { page: 1, layout: true });
    expect(cover).toContain('Records about the 2025 road contract');
    expect(cover).not.toContain('Blackwater');
    expect(cover).not.toMatch(/P0\d{3}/);
    // Counted by each box's own code, as labelled: the sub-code, not only the layer's.
    expect(cover).toMatch(/\(b\)\(7\)\(C\)\s+Law enforcement privacy\s+1/);
    const stamp = wordBoxes(bytes, 2).find((word) => word.word === 'P0500');
    expect(stamp?.xMin ?? 999).toBeLessThan(100);
    expect(pdftotext(bytes, { page: 4 })).toMatch(/Withheld in full under \(b\)\(6\)[\s\S]*P0502/);
  }, 120_000);
});
