import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

// The Release screen: the safeguards as a checklist with what blocks and where to fix it, the requester's
// details, a page withheld in full, the index preview and page stamps; the package downloaded from the window
// is read back with unzip and pdftotext. Screenshots go to the test report.

const ALL_ON = { pending_suggestions: true, unprocessed_documents: true, case_approved: true, separation_of_duties: true, changed_after_approval: true };
const DRAWER_SCOPES = ['cases:read', 'documents:read', 'redactions:read', 'redactions:write'];

test('release screen: checklist, withheld in full, index preview, stamps, and the package read back', async ({ admin, server, signedIn: page }, testInfo) => {
  test.setTimeout(180_000);
  const shot = async (name: string) => testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  await admin.expect(200, 'PATCH', '/api/v1/release-settings', { safeguards: ALL_ON });
  // The redactions are drawn by another principal, so the admin may approve them (separation of duties).
  const account = await admin.expect<{ data: { id: string } }>(201, 'POST', '/api/v1/service-accounts', { name: `Drawer ${Date.now()}`, max_scopes: DRAWER_SCOPES });
  const issued = await admin.expect<{ data: { secret: string } }>(201, 'POST', '/api/v1/api-keys', { service_account_id: account.data.id, name: 'drawer', scopes: DRAWER_SCOPES });
  const asDrawer = async (url: string, body: unknown) => {
    const response = await fetch(`${server.url}${url}`, { method: 'POST', headers: { 'x-api-key': issued.data.secret, 'idempotency-key': crypto.randomUUID(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { data: { redactions: { id: string }[] } };
  };

  const created = await admin.createCase(`Internal codename Kestrel ${Date.now()}`);
  const bytes = await textPdf([
    [
      { text: 'Applicant', x: 72, y: 700, size: 14 },
      { text: 'Alice Zephyrine', x: 72, y: 670, size: 14 },
    ],
    [{ text: 'Clinic notes ZZWITHHELD', x: 72, y: 700, size: 14 }],
  ]);
  const [document] = await admin.upload(created.id, [{ name: 'memo.pdf', bytes }]);
  const documentId = document?.id ?? '';
  await asDrawer(`/api/v1/documents/${documentId}/redactions`, { redactions: [{ kind: 'rectangle', layer: 'B6', reason: 'name', coordinates: { page: 1, units: 'pdf_points', box: { x1: 66, y1: 664, x2: 260, y2: 686 } } }] });
  const suggestion = await asDrawer(`/api/v1/documents/${documentId}/redactions`, {
    redactions: [{ kind: 'rectangle', layer: 'B6', state: 'pending', pending_reason: { entity: 'person_name' }, coordinates: { page: 1, units: 'pdf_points', box: { x1: 300, y1: 600, x2: 320, y2: 620 } } }],
  });

  await page.goto(`/#/cases/${created.id}`);
  await page.getByRole('link', { name: 'Release to requester…' }).click();
  await expect(page.getByRole('heading', { name: `Release of case ${created.id}` })).toBeVisible();
  const checklist = page.getByRole('list', { name: 'Safeguards' });
  await expect(checklist).toHaveAttribute('data-ready', 'false');
  await expect(checklist.locator('[data-check="pending_suggestions"]')).toHaveAttribute('data-state', 'blocked');
  await expect(checklist.locator('[data-check="case_approved"]')).toHaveAttribute('data-state', 'blocked');
  await expect(checklist.locator('[data-check="pending_suggestions"]').getByRole('link', { name: 'memo.pdf' })).toHaveAttribute('href', `#/documents/${documentId}?case=${created.id}`);
  await expect(checklist.locator('[data-check="separation_of_duties"]')).toHaveAttribute('data-state', 'passed');
  await shot('release-blocked');

  // Trying anyway shows what blocks, with the override's reason field.
  await page.getByRole('button', { name: 'Build the release' }).click();
  await expect(page.getByTestId('release-refused')).toContainText('suggestion(s) await a decision');

  await page.getByLabel('Request number').fill('PRR-2026-77');
  await page.getByLabel('Title the requester sees').fill('Clinic correspondence, spring 2026');
  await page.getByRole('button', { name: 'Save details' }).click();
  const withhold = page.getByRole('form', { name: 'Withhold in full' });
  await withhold.getByLabel('From page').fill('2');
  await withhold.getByLabel('To page').fill('2');
  await withhold.getByLabel('Exemption').fill('(b)(6)');
  await withhold.getByLabel('Category (optional)').fill('medical record');
  await withhold.getByRole('button', { name: 'Withhold in full' }).click();
  await expect(page.locator('.withholdings')).toContainText('memo.pdf, page 2: (b)(6) (medical record)');
  const preview = page.getByRole('table', { name: 'Withholding index preview' });
  await expect(preview.getByRole('row', { name: /memo p\. 1 memo \(b\)\(6\) withheld information in part 1/ })).toBeVisible();
  await expect(preview.getByRole('row', { name: /memo p\. 2 memo \(b\)\(6\) medical record in full 1/ })).toBeVisible();

  // Fix what blocks: decide the suggestion, approve the case; the checklist turns green.
  await asDrawer(`/api/v1/documents/${documentId}/review-decisions`, { decisions: [{ redaction_id: suggestion.data.redactions[0]?.id, decision: 'reject' }] });
  // The admin withheld page 2 above, so a third principal approves (separation of duties counts withholdings).
  const approverAccount = await admin.expect<{ data: { id: string } }>(201, 'POST', '/api/v1/service-accounts', { name: `Approver ${Date.now()}`, max_scopes: ['cases:read', 'cases:write'] });
  const approver = await admin.expect<{ data: { secret: string } }>(201, 'POST', '/api/v1/api-keys', { service_account_id: approverAccount.data.id, name: 'approver', scopes: ['cases:read', 'cases:write'] });
  for (const action of ['start', 'submit', 'approve']) {
    const response = await fetch(`${server.url}/api/v1/cases/${created.id}/actions`, { method: 'POST', headers: { 'x-api-key': approver.data.secret, 'idempotency-key': crypto.randomUUID(), 'content-type': 'application/json' }, body: JSON.stringify({ action }) });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  await page.reload();
  await expect(checklist).toHaveAttribute('data-ready', 'true');
  await expect(page.getByLabel('Request number')).toHaveValue('PRR-2026-77');
  await shot('release-ready');
  await saveScreenshot(page, 'release');

  await page.getByLabel('Stamp prefix').fill('PRR-');
  await page.getByRole('button', { name: 'Build the release' }).click();
  const status = page.getByTestId('release-status');
  await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
  await expect(status).toContainText('Release 1 is ready');
  await shot('release-built');

  const [download] = await Promise.all([page.waitForEvent('download'), status.getByRole('button', { name: /Download/ }).click()]);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-ui-release-'));
  try {
    const zip = path.join(folder, download.suggestedFilename());
    await download.saveAs(zip);
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(names).toEqual(['cover-letter.pdf', 'documents/001-memo.pdf', 'manifest.json', 'withholding-index.csv', 'withholding-index.pdf']);
    execFileSync('unzip', ['-q', zip, '-d', path.join(folder, 'out')]);
    const text = (name: string) => execFileSync('pdftotext', ['-q', path.join(folder, 'out', name), '-'], { encoding: 'utf8' });
    const memo = text('documents/001-memo.pdf');
    expect(memo).toContain('Applicant');
    expect(memo).not.toContain('Zephyrine');
    expect(memo).not.toContain('ZZWITHHELD');
    expect(memo).toMatch(/PRR-000001[\s\S]*Withheld in full under \(b\)\(6\)[\s\S]*PRR-000002/);
    const letter = text('cover-letter.pdf');
    expect(letter).toContain('PRR-2026-77');
    expect(letter).toContain('Clinic correspondence, spring 2026');
    expect(letter).not.toContain('Kestrel');
    expect(fs.readFileSync(path.join(folder, 'out', 'withholding-index.csv'), 'utf8')).toContain('PRR-000002,memo,(b)(6),medical record,in full,1');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
