import { expect, test } from './support/fixtures.js';
import { PAGE, textPdf } from './support/pdfs.js';

// Whole pages withheld at once from the viewer: a range of pages becomes one full-page box per page.

test('a page range is redacted as full-page boxes and saved', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Range case ${Date.now()}`);
  const pages = Array.from({ length: 5 }, (_, index) => [{ text: `Attachment page ${index + 1}`, x: 72, y: 700, size: 14 }]);
  const [document] = await admin.upload(created.id, [{ name: 'attachments.pdf', bytes: await textPdf(pages) }]);
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  const form = page.getByRole('form', { name: 'Redact whole pages' });
  await expect(form).toBeVisible();
  await form.getByLabel('From page').fill('2');
  await form.getByLabel('To page').fill('9');
  await expect(form.getByRole('button')).toBeDisabled();
  await form.getByLabel('To page').fill('4');
  await form.getByRole('button', { name: 'Redact pages 2–4' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('3 unsaved changes (B6)');
  await testInfo.attach('page-range', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');

  type Listed = { data: { layer: string; state: string; coordinates: { page: number; box: { x1: number; y1: number; x2: number; y2: number } } }[] };
  const boxes = (await admin.expect<Listed>(200, 'GET', `/api/v1/documents/${document!.id}/redactions?limit=100`)).data;
  expect(boxes.map((box) => [box.coordinates.page, box.layer, box.state, box.coordinates.box])).toEqual(
    [2, 3, 4].map((number) => [number, 'B6', 'accepted', { x1: 0, y1: 0, x2: PAGE.width, y2: PAGE.height }]),
  );
});
