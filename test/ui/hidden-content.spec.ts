import { hiddenLayerPdf, NOTE } from '../helpers/adversarial-pdfs.js';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { seriousViolations } from './support/screens.js';

// Hidden content shown on request (issue 25): a PDF made by pdfTeX with a note in a layer that is off. After the
// scan, the viewer offers "Show hidden content (1)"; pressed (from the keyboard), it outlines the note's region
// on the page with its kind in plain words and lists it with the note's own text.

test.beforeEach(async ({ admin }) => {
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: false });
});

test('the scan finds a layer that is off; the viewer outlines it and shows its text on request', async ({ admin, signedIn: page }) => {
  const created = await admin.createCase(`Hidden content ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'permit.pdf', bytes: (await hiddenLayerPdf()).bytes }]);
  const documentId = document!.id;
  const job = (await admin.expect<{ data: { id: string } }>(202, 'POST', `/api/v1/documents/${documentId}/scan-jobs`)).data;
  await expect
    .poll(async () => (await admin.expect<{ data: { status: string } }>(200, 'GET', `/api/v1/jobs/${job.id}`)).data.status, { timeout: 30_000 })
    .toBe('completed');

  await page.goto(`/#/documents/${documentId}?case=${created.id}`);
  await expect(page.getByTestId('redaction-overlay')).toBeVisible();
  const toggle = page.getByRole('button', { name: 'Show hidden content (1)' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('hidden-overlay')).toHaveCount(0);

  // From the keyboard: focus the toggle, press Enter.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const region = page.locator('[data-testid="hidden-overlay"] .hidden-region');
  await expect(region).toHaveCount(1);
  await expect(region).toHaveAttribute('data-kind', 'optional-content');
  await expect(region.locator('text')).toHaveText('Layer that is off');
  const box = await region.locator('rect').boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(100);

  const panel = page.getByTestId('hidden-content-panel');
  await expect(panel.getByRole('heading', { name: 'Hidden content found by the scan' })).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Page 1: Layer that is off/ })).toBeVisible();
  await expect(panel.locator('.hidden-text')).toHaveText(NOTE);
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'viewer-hidden-content');

  // Pressed again, the outlines and the list go away.
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('hidden-overlay')).toHaveCount(0);
  await expect(panel).toHaveCount(0);
});
