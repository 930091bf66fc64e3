import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuditEntry } from '../../main/common/schemas/audit.js';
import { ReleaseSettings } from '../../main/common/schemas/releases.js';
import { storePages } from '../helpers/analysis-support.js';
import { layoutPage, boxOf } from '../helpers/page-layout.js';
import { startExportHarness, waitForExport, type Harness } from '../helpers/export-fixtures.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { errorOf, orgId } from '../helpers/integration-support.js';
import { approveCase, approveWithSeparationOff, caseAction, drawerKey, exportOf, postExport, releaseCheck, withhold } from '../helpers/release-support.js';
import { createBoxes, keyWithScopes, rect } from '../helpers/v1-redactions-support.js';

// Findings (issue 26, 1, 2 and parts of 7): separation of duties counted only boxes the approver drew or
// accepted, so a redactor who deleted a box after approval re-approved and released, and one who rejected
// every suggestion approved the case; a key with only roles:write turned every safeguard off and no route
// showed it; withholdings were not in the case audit trail; a bulk decision on a value that folds to
// nothing decided every suggestion without words; boxes were read when the export built, not when checked.

type Blocks = { blocks: { check: string; message: string }[] };
const checksOf = (details: unknown) => (details as Blocks).blocks.map((entry) => entry.check);
const AuditList = z.object({ data: z.array(AuditEntry), cursor: z.string().nullable() });

describe('security: release controls', () => {
  let h: Harness;
  let redactor: string;

  beforeAll(async () => {
    h = await startExportHarness({ safeguards: true, runner: false });
    redactor = await drawerKey(h.instance);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  async function setSeparation(on: boolean) {
    expect((await h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { separation_of_duties: on } } })).statusCode).toBe(200);
  }

  async function caseWithDocument(name: string, key?: string) {
    const caseId = await createCase(h.instance, name, key);
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: `${name}.pdf`, bytes: minimalPdf(name) }], key);
    return { caseId, documentId: document?.id ?? '' };
  }

  it('a redactor who deleted a box after a colleague approved cannot re-approve and release', async () => {
    const { caseId, documentId } = await caseWithDocument('deleted-after-approval', redactor);
    const [kept, removed] = await createBoxes(h.instance, documentId, [rect(), rect({ coordinates: { page: 1, units: 'pdf_points', box: { x1: 200, y1: 20, x2: 300, y2: 60 } } })], redactor);
    expect(kept).toBeDefined();
    await approveCase(h.instance, caseId); // the administrator, who drew nothing
    expect((await releaseCheck(h.instance, caseId)).ready).toBe(true);
    expect((await h.instance.request({ method: 'DELETE', url: `/api/v1/redactions/${removed?.id}`, key: redactor })).statusCode).toBe(204);
    expect(checksOf(errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip' }, redactor), 409, 'conflict').details)).toEqual(['changed_after_approval']);
    const refused = errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/release-approval`, key: redactor }), 409, 'conflict');
    expect(refused.message).toMatch(/separation_of_duties/);
    errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip' }, redactor), 409, 'conflict');
    // Another person re-approves the case as it stands; then it may leave.
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/release-approval` })).statusCode).toBe(201);
    expect(exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip' }, redactor)).audience).toBe('release');
  });

  it('a redactor who rejected every suggestion cannot approve the case and release it; the check names who and what', async () => {
    const { caseId, documentId } = await caseWithDocument('rejected-suggestions');
    await storePages(h.instance, documentId, [layoutPage(['Applicant SSN 123-45-6789 on file'])]);
    await createBoxes(h.instance, documentId, [rect({ state: 'pending', pending_reason: { entity: 'ssn' }, coordinates: { page: 1, units: 'pdf_points', box: boxOf(0, 14, 25) } })]);
    const decided = await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/suggestions/decisions`, body: { decision: 'reject', value: '123-45-6789' }, key: redactor });
    expect(decided.statusCode, decided.body).toBe(201);
    expect((decided.json() as { data: { decided: number } }).data.decided).toBe(1);
    // The workflow refuses the redactor's approval, in the words of the permissions' reason.
    await caseAction(h.instance, caseId, 'start', redactor);
    await caseAction(h.instance, caseId, 'submit', redactor);
    const refused = errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'approve' }, key: redactor }), 409, 'conflict');
    expect(refused.message).toMatch(/^you wrote .*review decision\(s\) to it; another person must approve it \(separation_of_duties\)$/);
    // Given while the organization had the safeguard off, the approval is still caught at release.
    await setSeparation(false);
    await caseAction(h.instance, caseId, 'approve', redactor);
    await setSeparation(true);
    const check = await releaseCheck(h.instance, caseId);
    expect(check.blocks.map((entry) => entry.check)).toEqual(['separation_of_duties']);
    expect(check.blocks[0]?.message).toMatch(/review decision/);
    expect(checksOf(errorOf(await postExport(h.instance, { case_id: caseId, format: 'zip' }, redactor), 409, 'conflict').details)).toEqual(['separation_of_duties']);
  });

  it('a withholding written by the approver blocks, and withholdings are in the case audit trail', async () => {
    const { caseId, documentId } = await caseWithDocument('withheld-by-approver', redactor);
    await withhold(h.instance, caseId, { document_id: documentId, exemption: '(b)(6)' });
    // The workflow refuses this approval; given while the safeguard was off, the release still blocks it.
    await approveWithSeparationOff(h.instance, caseId);
    expect((await releaseCheck(h.instance, caseId)).blocks.map((entry) => entry.check)).toEqual(['separation_of_duties']);
    const trail = AuditList.parse((await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit?action=withholding.` })).json());
    expect(trail.data.map((entry) => entry.action)).toEqual(['withholding.create']);
    expect(trail.data[0]?.document_id).toBe(documentId);
  });

  it('turning a safeguard off needs exports:override as well as roles:write; it is readable through the API and every export records it', async () => {
    const policyOnly = await keyWithScopes(h.instance, ['roles:write'], 1);
    const denied = errorOf(await h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { case_approved: false } }, key: policyOnly }), 403, 'permission_denied');
    expect(denied.details).toMatchObject({ required_scopes: ['roles:write', 'exports:override'] });
    const theirs = h.instance.orgs[1]?.api_key;
    const unchanged = ReleaseSettings.parse((await h.instance.request({ method: 'GET', url: '/api/v1/release-settings', key: theirs })).json().data);
    expect(unchanged.safeguards.case_approved).toBe(true);
    const officer = await keyWithScopes(h.instance, ['roles:write', 'exports:override', 'exports:read', 'exports:write', 'cases:write', 'cases:read'], 1);
    expect((await h.instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { case_approved: false, separation_of_duties: false } }, key: officer })).statusCode).toBe(200);
    const history = AuditList.parse((await h.instance.request({ method: 'GET', url: '/api/v1/release-settings/audit', key: theirs })).json());
    expect(history.data[0]).toMatchObject({ action: 'release_settings.update', details: { safeguards_turned_off: ['case_approved', 'separation_of_duties'] } });
    expect(history.data[0]?.actor.type).toBe('api_key');
    const caseId = await createCase(h.instance, 'released with checks off', officer);
    const created = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip' }, officer));
    const trail = AuditList.parse((await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/audit?action=export.create`, key: theirs })).json());
    expect(trail.data[0]).toMatchObject({ resource_id: created.id, details: { safeguards: 'passed', safeguards_off: ['case_approved', 'separation_of_duties'] } });
    expect(orgId(h.instance, 1)).not.toBe(orgId(h.instance, 0));
  });

  it('a bulk decision on a value that folds to nothing is refused and decides nothing', async () => {
    const { caseId, documentId } = await caseWithDocument('empty-fold');
    await createBoxes(h.instance, documentId, [rect({ state: 'pending', pending_reason: { entity: 'ssn' } })]);
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/suggestions/decisions`, body: { decision: 'accept', value: '\u0301\u0301' } }), 400, 'validation_error');
    const queue = (await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/suggestions` })).json() as { data: { total: number } };
    expect(queue.data.total).toBe(1);
  });

  it('a release reads the boxes that were checked: a box deleted while it waits fails it instead of leaving unredacted', async () => {
    const { caseId, documentId } = await caseWithDocument('pinned');
    const [box] = await createBoxes(h.instance, documentId, [rect()]);
    await approveWithSeparationOff(h.instance, caseId); // drew and approved: separation of duties blocks, the override passes it
    const queued = exportOf(await postExport(h.instance, { case_id: caseId, format: 'zip', override: { reason: 'single clerk office this week' } }));
    expect((await h.instance.request({ method: 'DELETE', url: `/api/v1/redactions/${box?.id}`, key: redactor })).statusCode).toBe(204);
    await h.startRunner();
    const done = await waitForExport(h.instance, queued.id, ['completed', 'failed'], 60_000);
    expect(done.status).toBe('failed');
    expect(done.error_message).toMatch(/changed after it was requested/);
  }, 90_000);
});
