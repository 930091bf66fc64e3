import { expect, saveScreenshot, test } from './support/fixtures.js';
import { textPdf, type Line } from './support/pdfs.js';

interface StoredBox {
  page_number: number;
  layer: string;
}

// A 500-page document in the continuous view: it opens, the wheel and the page field move through it, only
// pages near the viewport have canvases, and a box drawn on page 400 is stored on page 400.

const PAGES = 500;

function pages(): Line[][] {
  return Array.from({ length: PAGES }, (_, index) => [
    { text: `Page marker ${index + 1} of the long file`, x: 72, y: 720, size: 14 },
    { text: 'Routine minutes of the parks committee', x: 72, y: 690, size: 12 },
  ]);
}

// Documents here stay as uploaded: automatic processing (on by default) would add detection suggestions.
test.beforeEach(async ({ admin }) => {
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: false });
});
test('a 500-page document scrolls continuously with a bounded number of rendered pages', async ({ admin, signedIn: page }, testInfo) => {
  test.setTimeout(120_000);
  const created = await admin.createCase(`Long document ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'long.pdf', bytes: await textPdf(pages()) }]);
  await page.setViewportSize({ width: 1400, height: 900 });

  const opened = Date.now();
  await page.goto(`/#/documents/${document!.id}?case=${created.id}&view=continuous`);
  const column = page.getByTestId('continuous-pages');
  await expect(column).toHaveAttribute('data-page-count', String(PAGES));
  await expect(page.locator('.continuous-slot [data-page="1"][aria-busy="false"]')).toBeVisible();
  const openMs = Date.now() - opened;
  await expect(page.getByRole('button', { name: 'Continuous' })).toHaveAttribute('aria-pressed', 'true');

  // The column is as tall as 500 pages (placeholders sized from the page), yet few canvases exist.
  const height = await column.evaluate((element) => element.getBoundingClientRect().height);
  expect(height).toBeGreaterThan(PAGES * 500);
  const pageCanvases = page.locator('.continuous-pages canvas.page-canvas');
  expect(await pageCanvases.count()).toBeLessThanOrEqual(8);

  // The wheel moves through pages: the page field follows.
  await page.locator('.stage').hover();
  for (let turn = 0; turn < 6; turn += 1) await page.mouse.wheel(0, 900);
  await expect.poll(async () => Number(await page.getByLabel('Page number').inputValue())).toBeGreaterThan(2);

  // Jump to page 400 through the page field; it is rendered and in view, the canvases stay bounded.
  const jumped = Date.now();
  await page.getByLabel('Page number').fill('400');
  await page.getByLabel('Page number').press('Enter');
  const target = page.locator('.continuous-slot [data-page="400"][aria-busy="false"]');
  await expect(target).toBeInViewport();
  const jumpMs = Date.now() - jumped;
  await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 400' })).toHaveAttribute('aria-current', 'page');
  expect(await pageCanvases.count()).toBeLessThanOrEqual(8);
  const rendered = await page.locator('.continuous-slot [data-page]').evaluateAll((frames) => frames.map((frame) => Number(frame.getAttribute('data-page'))));
  expect(Math.min(...rendered)).toBeGreaterThanOrEqual(395);
  expect(Math.max(...rendered)).toBeLessThanOrEqual(405);
  await expect(page.getByLabel('Page number')).toHaveValue('400');

  // Drawing still works in this view: a box on page 400 is stored on page 400.
  const overlay = page.locator('.continuous-slot [data-page="400"] [data-testid="redaction-overlay"]');
  const box = (await overlay.boundingBox())!;
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  await page.mouse.move(box.x + 60, box.y + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + 220, box.y + 90, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  const stored = await admin.expect<{ redactions: StoredBox[] }>(200, 'GET', `/api/redactions/${document!.id}`);
  expect(stored.redactions.map((entry) => entry.page_number)).toEqual([400]);

  // Zoom keeps the same page in view.
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.locator('.continuous-slot [data-page="400"]')).toBeInViewport();
  await expect(page.getByLabel('Page number')).toHaveValue('400');

  await saveScreenshot(page, 'viewer-scroll');
  await testInfo.attach('viewer-scroll-page-400', { body: await page.screenshot(), contentType: 'image/png' });
  console.log(`viewer-scroll: ${PAGES} pages, opened in ${openMs} ms, page 400 in view ${jumpMs} ms after the jump`);
  await testInfo.attach('timings', { body: JSON.stringify({ pages: PAGES, openMs, jumpMs }), contentType: 'application/json' });
});
