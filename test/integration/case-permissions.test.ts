import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CasePermissions } from '../../main/common/schemas/case-permissions.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { auditOf, dataOf, errorOf } from '../helpers/integration-support.js';
import { caseAction } from '../helpers/release-support.js';
import { createBox, keyWithScopes } from '../helpers/v1-redactions-support.js';

// GET /cases/{id}/permissions: the window offers only what the caller may do (docs/api.md, Case permissions).
describe('case permissions', () => {
  let instance: TestInstance;
  let drawer: string;
  let reviewer: string;
  let viewer: string;
  let caseId: string;
  let documentId: string;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    drawer = await keyWithScopes(instance, ['cases:read', 'cases:write', 'documents:read', 'documents:write', 'redactions:read', 'redactions:write', 'processing:write', 'exports:write']);
    reviewer = await keyWithScopes(instance, ['cases:read', 'cases:write', 'redactions:read', 'redactions:write', 'exports:read']);
    viewer = await keyWithScopes(instance, ['cases:read']);
    caseId = await createCase(instance, 'Permit complaint', drawer);
    const [document] = await uploadDocuments(instance, caseId, [{ name: 'memo.pdf', bytes: minimalPdf() }], drawer);
    documentId = document?.id ?? '';
    await createBox(instance, documentId, undefined, drawer);
  });
  afterAll(() => instance.close());

  const permissions = async (key: string) => dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/permissions`, key }), CasePermissions);

  it('offers workflow actions by status and scope, with the reason when not', async () => {
    const asViewer = await permissions(viewer);
    expect(asViewer.actions.start).toEqual({ allowed: false, reason: 'your role does not allow changing the case (needs cases:write)' });
    expect(asViewer.actions.manage_settings.allowed).toBe(false);
    expect(asViewer.actions.upload.allowed).toBe(false);
    const asDrawer = await permissions(drawer);
    expect(asDrawer.actions.start.allowed).toBe(true);
    expect(asDrawer.actions.approve).toMatchObject({ allowed: false, reason: 'not while the case is open' });
    expect(asDrawer.actions.process.allowed).toBe(true);
    expect((await permissions(reviewer)).actions.process.allowed).toBe(false);
  });

  it('separation of duties: the person who redacted is not offered approval; the reviewer is, and the note is kept', async () => {
    await caseAction(instance, caseId, 'start', drawer);
    await caseAction(instance, caseId, 'submit', drawer);
    const asDrawer = await permissions(drawer);
    expect(asDrawer.actions.approve).toEqual({ allowed: false, reason: 'you drew or accepted redactions in this case and wrote 1 layer version(s) to it; another person must approve it' });
    expect((await permissions(reviewer)).actions.approve).toEqual({ allowed: true, reason: null });
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'approve', note: '' }, key: reviewer }), 400, 'validation_error');
    const approved = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'approve', note: 'Checked every page' }, key: reviewer });
    expect(approved.statusCode, approved.body).toBe(200);
    const after = await permissions(reviewer);
    expect(after.approval).toMatchObject({ note: 'Checked every page', reopened: false, changed_document_ids: [] });
    expect(after.actions.reapprove).toEqual({ allowed: false, reason: 'nothing changed since the approval' });
    const record = (await auditOf(instance, 'case', caseId)).filter((row) => row.action === 'case.status_change').at(-1);
    expect(JSON.parse(record?.details ?? '{}')).toMatchObject({ to: 'approved', note: 'Checked every page' });
  });

  it('an edit after approval reopens it: the reviewer is offered re-approval with what changed, the editor is not', async () => {
    await createBox(instance, documentId, undefined, drawer);
    const forReviewer = await permissions(reviewer);
    expect(forReviewer.approval).toMatchObject({ reopened: true, changed_document_ids: [documentId] });
    expect(forReviewer.actions.reapprove.allowed).toBe(true);
    expect((await permissions(drawer)).actions.reapprove.allowed).toBe(false);
  });

  it('one rule of separation of duties: whom the permissions refuse, the re-approval refuses for the same reason, and the release check agrees', async () => {
    const reapproveAs = (key: string | undefined, body?: unknown) => instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/release-approval`, ...(body !== undefined && { body }), ...(key !== undefined && { key }) });
    // The drawer edited after the approval: refused in the window and by the server, in the same words.
    const asDrawer = (await permissions(drawer)).actions.reapprove;
    expect(asDrawer.allowed).toBe(false);
    expect(asDrawer.reason).toMatch(/^you drew or accepted redactions in this case and wrote \d+ layer version\(s\) to it since the approval on /);
    expect(errorOf(await reapproveAs(drawer), 409, 'conflict').message).toBe(`${asDrawer.reason} (separation_of_duties)`);
    // The reviewer who approved then draws a box too: now refused both ways as well.
    await createBox(instance, documentId, undefined, reviewer);
    const asReviewer = (await permissions(reviewer)).actions.reapprove;
    expect(asReviewer.reason).toMatch(/^you drew or accepted redactions in this case and wrote \d+ layer version\(s\) to it since the approval on /);
    expect(errorOf(await reapproveAs(reviewer), 409, 'conflict').message).toBe(`${asReviewer.reason} (separation_of_duties)`);
    // A third person, allowed in the window, re-approves with a note like an approval's; the release check agrees.
    const admin = await permissions(instance.orgs[0]?.api_key ?? '');
    expect(admin.actions.reapprove).toEqual({ allowed: true, reason: null });
    errorOf(await reapproveAs(undefined, { note: '' }), 400, 'validation_error');
    expect((await reapproveAs(undefined, { note: 'Checked the two new boxes' })).statusCode).toBe(201);
    const after = await permissions(instance.orgs[0]?.api_key ?? '');
    expect(after.approval).toMatchObject({ note: 'Checked the two new boxes', reopened: false });
    const record = (await auditOf(instance, 'case', caseId)).filter((row) => row.action === 'case.release_reapprove').at(-1);
    expect(JSON.parse(record?.details ?? '{}')).toMatchObject({ note: 'Checked the two new boxes' });
    const check = dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/release-check` }), z.object({ checks: z.array(z.object({ check: z.string(), passed: z.boolean() })) }));
    expect(check.checks.find((entry) => entry.check === 'separation_of_duties')?.passed).toBe(true);
  });

  it('a first approval the window refuses, the workflow refuses in the same words (action and PATCH); the release safeguard catches one given while the safeguard was off', async () => {
    const own = await createCase(instance, 'Own work', drawer);
    const [document] = await uploadDocuments(instance, own, [{ name: 'own.pdf', bytes: minimalPdf() }], drawer);
    await createBox(instance, document?.id ?? '', undefined, drawer);
    await caseAction(instance, own, 'start', drawer);
    await caseAction(instance, own, 'submit', drawer);
    const refused = (await dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${own}/permissions`, key: drawer }), CasePermissions)).actions.approve;
    expect(refused).toEqual({ allowed: false, reason: 'you drew or accepted redactions in this case and wrote 1 layer version(s) to it; another person must approve it' });
    // The server refuses the approval itself, through the action and through PATCH, with the window's reason.
    const byAction = errorOf(await instance.request({ method: 'POST', url: `/api/v1/cases/${own}/actions`, body: { action: 'approve', note: 'My own work' }, key: drawer }), 409, 'conflict');
    expect(byAction.message).toBe(`${refused.reason} (separation_of_duties)`);
    expect(byAction.details).toEqual({ check: 'separation_of_duties', writes: [{ actor: expect.stringMatching(/^api_key:/), what: 'layer_version', count: 1 }], document_ids: [document?.id] });
    const byPatch = errorOf(await instance.request({ method: 'PATCH', url: `/api/v1/cases/${own}`, body: { status: 'approved' }, key: drawer }), 409, 'conflict');
    expect(byPatch.message).toBe(byAction.message);
    const status = async () => dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${own}` }), z.object({ status: z.string() })).status;
    expect(await status()).toBe('in_review');
    expect((await auditOf(instance, 'case', own)).filter((row) => row.action === 'case.status_change').map((row) => JSON.parse(row.details ?? '{}').to)).toEqual(['in_progress', 'in_review']);
    // With the organization's safeguard off, the same approval goes through; turned on again, the release
    // safeguard blocks it, saying the same of "the approver".
    const setSeparation = async (on: boolean) => expect((await instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body: { safeguards: { separation_of_duties: on } } })).statusCode).toBe(200);
    await setSeparation(false);
    expect((await dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${own}/permissions`, key: drawer }), CasePermissions)).actions.approve).toEqual({ allowed: true, reason: null });
    await caseAction(instance, own, 'approve', drawer);
    await setSeparation(true);
    expect(await status()).toBe('approved');
    const check = dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${own}/release-check` }), z.object({ blocks: z.array(z.object({ check: z.string(), message: z.string() })) }));
    expect(check.blocks.find((entry) => entry.check === 'separation_of_duties')?.message).toBe(refused.reason?.replace(/^you /, 'the approver '));
  });

  it('is 404 for a case of another organization', async () => {
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/permissions`, key: instance.orgs[1]?.api_key ?? '' }), 404, 'resource_not_found');
  });
});
