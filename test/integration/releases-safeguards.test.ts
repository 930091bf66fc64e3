import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertJob } from '../../main/db/queries/jobs.js';
import { ReleaseSettings } from '../../main/common/schemas/releases.js';
import { ALL_SCOPES } from '../../main/common/scopes.js';
import { startExportHarness, exportFile, waitForExport, type Harness } from '../helpers/export-fixtures.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { auditOf, dataOf, detailFields, errorOf, orgId } from '../helpers/integration-support.js';
import { approveCase, approveWithSeparationOff, drawerKey, exportOf, postExport, releaseCheck, unzipAll, withhold } from '../helpers/release-support.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';

// Safeguards before a release leaves: each a 409 listing what blocks, on by default, overridden only with the
// exports:override scope and a reason (audited, kept in the internal record); internal records never blocked.

type Blocks = { blocks: { check: string; document_ids: string[]; count: number; message: string }[] };
const blocksOf = (details: unknown) => (details as Blocks).blocks;

describe('release safeguards', () => {
  let h: Harness;
  let drawer: string;
  let caseId: string;
  let documentId: string;

  beforeAll(async () => {
    h = await startExportHarness({ safeguards: true });
    drawer = await drawerKey(h.instance);
    caseId = await createCase(h.instance, 'Guarded case', drawer);
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf('Guarded text') }], drawer);
    documentId = document?.id ?? '';
    await createBoxes(h.instance, documentId, [rect({ state: 'pending', pending_reason: { entity: 'ssn' } }), rect()], drawer);
    // A scan job that stays queued (no scheduler runs in this suite).
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/scan-jobs` })).statusCode).toBe(202);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('lists what blocks as a checklist and refuses the release with 409, changing nothing', async () => {
    const check = await releaseCheck(h.instance, caseId);
    expect(check.ready).toBe(false);
    expect(check.checks).toEqual([
      { check: 'pending_suggestions', enabled: true, passed: false },
      { check: 'unprocessed_documents', enabled: true, passed: false },
      { check: 'case_approved', enabled: true, passed: false },
      { check: 'separation_of_duties', enabled: true, passed: true },
      { check: 'changed_after_approval', enabled: true, passed: true },
    ]);
    expect(check.blocks.find((entry) => entry.check === 'pending_suggestions')).toMatchObject({ document_ids: [documentId], count: 1 });
    expect(check.blocks.find((entry) => entry.check === 'unprocessed_documents')?.message).toMatch(/still processing/);
    const before = await h.instance.runtime.db.selectFrom('exports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const body of [{ format: 'zip' }, { format: 'pdf' }, { format: 'zip', options: { audience: 'release', stamps: {} } }]) {
      const error = errorOf(await postExport(h.instance, { case_id: caseId, ...body }), 409, 'conflict');
      expect(error.message).toMatch(/blocked by 3 safeguard\(s\): pending_suggestions, unprocessed_documents, case_approved/);
      expect(blocksOf(error.details).map((entry) => entry.check)).toEqual(['pending_suggestions', 'unprocessed_documents', 'case_approved']);
      expect((error.details as unknown as { override_scope: string }).override_scope).toBe('exports:override');
    }
    const after = await h.instance.runtime.db.selectFrom('exports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // The internal record is never blocked.
    for (const body of [{ format: 'csv' }, { format: 'json' }, { format: 'zip', options: { audience: 'internal' } }]) {
      expect(exportOf(await postExport(h.instance, { case_id: caseId, ...body })).audience).toBe('internal');
    }
  });

  it('an override needs exports:override and a reason; it is audited and kept in the internal record only', async () => {
    const denied = errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip', override: { reason: 'the requester is waiting' } }, drawer), 403, 'permission_denied');
    expect((denied.details as unknown as { required_scopes: string[] }).required_scopes).toEqual(['exports:override']);
    expect(detailFields(errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip', override: { reason: 'short' } }), 400, 'validation_error'))).toEqual(['override.reason']);
    expect(detailFields(errorOf(await postExport(h.instance, { case_id: caseId, format: 'json', override: { reason: 'internal has no safeguards' } }), 400, 'validation_error'))).toEqual(['override']);
    const overridden = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip', override: { reason: 'court order 24-117 sets today as the deadline' } }));
    const audit = await auditOf(h.instance, 'export', overridden.id);
    const record = audit.find((entry) => entry.action === 'export.safeguards_override');
    expect(record?.actor_type).toBe('api_key');
    expect(JSON.parse(record?.details ?? '{}')).toMatchObject({ reason: 'court order 24-117 sets today as the deadline', blocks: [{ check: 'pending_suggestions' }, { check: 'unprocessed_documents' }, { check: 'case_approved' }] });
    const { bytes } = await exportFile(h.instance, { case_id: caseId, format: 'json' });
    const internal = JSON.parse(bytes.toString('utf8')) as { audience: string; release: { safeguards: { export_id: string; safeguards: { outcome: string; reason: string } }[] } };
    expect(internal.audience).toBe('internal');
    expect(internal.release.safeguards.find((entry) => entry.export_id === overridden.id)?.safeguards).toMatchObject({ outcome: 'overridden', reason: 'court order 24-117 sets today as the deadline' });
  });

  it('the scope is granted by the admin role only', async () => {
    expect(ALL_SCOPES).toContain('exports:override');
    const roles = z.object({ data: z.array(z.object({ name: z.string(), scopes: z.array(z.string()) })) }).parse((await h.instance.request({ method: 'GET', url: '/api/v1/roles' })).json());
    expect(roles.data.filter((role) => role.scopes.includes('exports:override')).map((role) => role.name)).toEqual(['admin']);
  });

  it('separation of duties: an approver who drew or accepted redactions blocks the release', async () => {
    const own = await createCase(h.instance, 'Own work');
    const [document] = await uploadDocuments(h.instance, own, [{ name: 'b.pdf', bytes: minimalPdf('Own text') }]);
    await createBoxes(h.instance, document?.id ?? '', [rect()]);
    // The workflow refuses this approval (case-permissions.test.ts); one given while the safeguard was off is
    // what the release catches.
    await approveWithSeparationOff(h.instance, own);
    const error = errorOf(await postExport(h.instance, { case_id: own, format: 'zip' }), 409, 'conflict');
    expect(blocksOf(error.details)).toEqual([expect.objectContaining({ check: 'separation_of_duties', document_ids: [document?.id] })]);
  });

  it('a failed processing job blocks; safeguards are per organization and turning one off is audited', async () => {
    const other = await createCase(h.instance, 'Failed OCR', drawer);
    const [document] = await uploadDocuments(h.instance, other, [{ name: 'c.pdf', bytes: minimalPdf('OCR text') }], drawer);
    const now = new Date().toISOString();
    await insertJob(h.instance.runtime.db, { organization_id: orgId(h.instance), document_id: Number(document?.id), kind: 'ocr', status: 'failed', options: '{}', progress: 0, attempts: 1, result: null, error_message: 'broken', created_at: now, started_at: now, finished_at: now, updated_at: now });
    await approveCase(h.instance, other);
    expect((await releaseCheck(h.instance, other)).blocks).toEqual([expect.objectContaining({ check: 'unprocessed_documents', message: expect.stringMatching(/failed/) })]);
    errorOf(await h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { unprocessed_documents: false } }, key: drawer }), 403, 'permission_denied');
    const settings = dataOf(await h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { unprocessed_documents: false } } }), ReleaseSettings);
    expect(settings.safeguards).toMatchObject({ unprocessed_documents: false, pending_suggestions: true });
    const audit = await auditOf(h.instance, 'release_settings', String(orgId(h.instance)));
    expect(JSON.parse(audit.at(-1)?.details ?? '{}')).toMatchObject({ safeguards_turned_off: ['unprocessed_documents'] });
    expect((await releaseCheck(h.instance, other)).ready).toBe(true);
    // The other organization keeps its defaults.
    const theirs = dataOf(await h.instance.request({ method: 'GET', url: '/api/v1/release-settings', key: h.instance.orgs[1]?.api_key }), ReleaseSettings);
    expect(Object.values(theirs.safeguards).every(Boolean)).toBe(true);
    expect(exportOf(await postExport(h.instance, { case_id: other, format: 'zip' })).audience).toBe('release');
  });

  it('withholdings and options are validated plainly and change nothing when refused', async () => {
    const url = `/api/v1/cases/${caseId}/withholdings`;
    expect(detailFields(errorOf(await h.instance.request({ method: 'POST', url, body: { document_id: documentId, exemption: '(b)(99)' } }), 400, 'validation_error'))).toEqual(['exemption']);
    expect(detailFields(errorOf(await h.instance.request({ method: 'POST', url, body: { document_id: documentId, pages: { from: 3, to: 2 }, exemption: '(b)(6)' } }), 400, 'validation_error'))).toEqual(['pages.to']);
    const elsewhere = await createCase(h.instance, 'Elsewhere');
    expect(detailFields(errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/cases/${elsewhere}/withholdings`, body: { document_id: documentId, exemption: '(b)(6)' } }), 400, 'validation_error'))).toEqual(['document_id']);
    const created = await withhold(h.instance, caseId, { document_id: documentId, pages: { from: 1, to: 1 }, exemption: '(b)(7)(C)' });
    expect(created).toMatchObject({ pages: { from: 1, to: 1 }, exemption: '(b)(7)(C)', category: null });
    errorOf(await h.instance.request({ method: 'POST', url, body: { document_id: documentId, exemption: '(b)(6)' } }), 409, 'conflict');
    expect((await h.instance.request({ method: 'DELETE', url: `/api/v1/withholdings/${created.id}` })).statusCode).toBe(204);
    expect((await auditOf(h.instance, 'withholding', created.id)).map((entry) => entry.action)).toEqual(['withholding.create', 'withholding.delete']);
    const field = async (body: Record<string, unknown>) => detailFields(errorOf(await postExport(h.instance, { case_id: caseId, ...body }), 400, 'validation_error'));
    expect(await field({ format: 'pdf', options: { audience: 'internal' } })).toEqual(['options.audience']);
    expect(await field({ format: 'zip', options: { audience: 'internal', stamps: {} } })).toEqual(['options.stamps']);
    expect(await field({ format: 'pdf', options: { cover_letter: true } })).toEqual(['options.cover_letter']);
    expect(await field({ format: 'zip', options: { stamps: { prefix: 'bad/prefix' } } })).toEqual(['options.stamps.prefix']);
  });

  it('the internal zip is never a release: it holds the case record and log, marked INTERNAL', async () => {
    const { exported, bytes } = await exportFile(h.instance, { case_id: caseId, format: 'zip', options: { audience: 'internal' } });
    expect(exported.file?.name).toBe(`case-${caseId}-export-${exported.id}-INTERNAL.zip`);
    expect(exported.release_number).toBeNull();
    expect([...unzipAll(bytes).keys()].every((name) => name.startsWith('INTERNAL-') || name === 'manifest.json')).toBe(true);
  });
});

describe('release safeguards when processing starts', () => {
  it('a release that passed when requested fails with the reason if a safeguard blocks it once it runs', async () => {
    const h = await startExportHarness({ safeguards: true, runner: false });
    try {
      const drawer = await drawerKey(h.instance);
      const caseId = await createCase(h.instance, 'Rechecked', drawer);
      const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'r.pdf', bytes: minimalPdf('Rechecked text') }], drawer);
      await createBoxes(h.instance, document?.id ?? '', [rect()], drawer);
      await approveCase(h.instance, caseId);
      const queued = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip' }));
      // Before the runner takes it, the drawer changes a box: the approval no longer covers the case.
      await createBoxes(h.instance, document?.id ?? '', [rect({ coordinates: { page: 1, units: 'pdf_points', box: { x1: 200, y1: 200, x2: 240, y2: 240 } } })], drawer);
      await h.startRunner();
      const failed = await waitForExport(h.instance, queued.id, ['completed', 'failed'], 60_000);
      expect(failed.status).toBe('failed');
      expect(failed.error_message).toMatch(/^the export cannot run: a release safeguard blocks it now: changed_after_approval/);
      expect(failed.release_number).toBeNull();
    } finally {
      await h.close();
    }
  }, 60_000);
});
