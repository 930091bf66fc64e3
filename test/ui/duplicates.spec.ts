import { dropFiles } from './support/dom.js';
import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

// A file dropped again into a case is flagged as a copy of the first, and the clerk can skip it.

test('a repeated upload is shown as a duplicate and can be skipped', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Duplicate case ${Date.now()}`);
  const bytes = await textPdf([[{ text: `Invoice ${Date.now()}`, x: 72, y: 700, size: 14 }]]);
  const [first] = await admin.upload(created.id, [{ name: 'invoice.pdf', bytes }]);
  await page.goto(`/#/cases/${created.id}`);
  const table = page.getByRole('table', { name: 'Documents' });
  await expect(table.getByRole('link', { name: 'invoice.pdf' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Duplicate uploads' })).toHaveCount(0);

  await dropFiles(page, page.locator('.dropzone'), [{ name: 'invoice-again.pdf', type: 'application/pdf', bytes }]);
  await expect(table.getByRole('link', { name: 'invoice-again.pdf' })).toBeVisible();
  const notice = page.getByRole('region', { name: 'Duplicate uploads' });
  // Straight from the upload's completion answer, no reload.
  await expect(notice).toContainText('“invoice-again.pdf” is the same file as “invoice.pdf”, already in this case.');
  await testInfo.attach('duplicate-warning', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  const listed = await admin.expect<{ data: { id: string; fileName: string; duplicate_of: string | null }[] }>(200, 'GET', `/api/v1/cases/${created.id}/documents`);
  const copy = listed.data.find((document) => document.fileName === 'invoice-again.pdf');
  expect(copy?.duplicate_of).toBe(first!.id);

  await notice.getByRole('button', { name: 'Skip the copy' }).click();
  await expect(notice).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'invoice-again.pdf' })).toHaveCount(0);
  await admin.expect(404, 'GET', `/api/v1/documents/${copy!.id}`);
  await admin.expect(200, 'GET', `/api/v1/documents/${first!.id}`);
});
