import fs from 'node:fs';
import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

// The case's history in the window: who changed which box and how, filtered, and downloaded as CSV.

test('the history shows redaction changes before and after, filters them, and downloads as CSV', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Audit case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'ledger.pdf', bytes: await textPdf([[{ text: 'Paid to Jane Roe in full', x: 72, y: 700, size: 12 }]]) }]);
  const job = (await admin.expect<{ data: { id: string } }>(202, 'POST', `/api/v1/documents/${document!.id}/ocr-jobs`, {})).data;
  await expect.poll(async () => (await admin.expect<{ data: { status: string } }>(200, 'GET', `/api/v1/jobs/${job.id}`)).data.status, { timeout: 30_000 }).toBe('completed');
  const staged = await admin.expect<{ data: { redaction_ids: string[] } }>(201, 'POST', `/api/v1/cases/${created.id}/search/redactions`, { query: 'jane roe', layer: 'B6', state: 'pending' });
  await admin.expect(201, 'POST', `/api/v1/documents/${document!.id}/review-decisions`, { decisions: [{ redaction_id: staged.data.redaction_ids[0], decision: 'accept' }] });

  await page.goto(`/#/cases/${created.id}`);
  const panel = page.getByRole('region', { name: 'History' });
  const rows = panel.getByRole('table', { name: 'History' }).locator('tbody tr');
  await expect(rows.first()).toHaveAttribute('data-action', 'redactions.write');
  // The review decision: the box went from pending to accepted, by the signed-in administrator.
  await expect(rows.first()).toContainText('pending · B6 · page 1 → accepted · B6 · page 1');
  await expect(rows.first()).toContainText(admin.user.display_name || admin.user.username);
  await expect(panel.locator('tr[data-action="redactions.write"]').nth(1)).toContainText('created');
  await expect(panel.locator('tr[data-action="document.create"]')).toHaveCount(1);

  await panel.getByLabel('What').selectOption({ label: 'Redaction changes and decisions' });
  await expect(rows).toHaveCount(2);
  await expect(panel.locator('tr[data-action="document.create"]')).toHaveCount(0);
  await testInfo.attach('audit-view', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`case-${created.id}-audit.csv`);
  const csv = fs.readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
  expect(csv[0]).toBe('id,at,actor,actor_name,action,resource_type,resource_id,document_id,redaction_id,change,before,after,details');
  expect(csv.slice(1).map((line) => line.split(',')[9])).toEqual(['updated', 'created']);
});
