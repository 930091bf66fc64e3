import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PAGE, textPdf, type Line } from './support/pdfs.js';

// "Preview as released": the viewer shows the page the server's burn-in makes (the export's own code); the
// box is black in it, and the rest matches the page of a real export rendered independently by poppler.

const LINES: Line[] = [
  { text: 'Request 2026-0190: parks maintenance records', x: 72, y: 720, size: 14 },
  { text: 'Applicant: Morgan Castell, 4 Quarry Lane', x: 72, y: 690, size: 14 },
  { text: 'Signed by the records officer', x: 72, y: 660, size: 14 },
];

interface Grey {
  width: number;
  height: number;
  pixels: number[];
}

/** Share of dark (< 100) pixels in a rect of a grey image (pixel units). */
function darkShare(image: Grey, rect: { x1: number; y1: number; x2: number; y2: number }): number {
  let dark = 0;
  let total = 0;
  for (let y = Math.ceil(rect.y1); y < Math.floor(rect.y2); y += 1) {
    for (let x = Math.ceil(rect.x1); x < Math.floor(rect.x2); x += 1) {
      total += 1;
      if ((image.pixels[y * image.width + x] ?? 255) < 100) dark += 1;
    }
  }
  return total ? dark / total : 0;
}

/** The exported page rendered by poppler at exactly the canvas's size, grey. */
function popplerGrey(bytes: Buffer, width: number, height: number): Grey {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-preview-'));
  try {
    fs.writeFileSync(path.join(dir, 'export.pdf'), bytes);
    execFileSync('pdftoppm', ['-gray', '-f', '1', '-l', '1', '-scale-to-x', String(width), '-scale-to-y', String(height), path.join(dir, 'export.pdf'), path.join(dir, 'page')]);
    const name = fs.readdirSync(dir).find((entry) => entry.endsWith('.pgm'))!;
    const data = fs.readFileSync(path.join(dir, name));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString('latin1'))!;
    return { width: Number(header[1]), height: Number(header[2]), pixels: [...data.subarray(header[0].length)] };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Documents here stay as uploaded: automatic processing (on by default) would add detection suggestions.
test.beforeEach(async ({ admin }) => {
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: false });
});
test('preview as released shows the burned page, matching the exported page', async ({ admin, signedIn: page }, testInfo) => {
  test.setTimeout(120_000);
  const off = { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false };
  await admin.expect(200, 'PATCH', '/api/v1/release-settings', { safeguards: off });
  const created = await admin.createCase(`Preview case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'request.pdf', bytes: await textPdf([LINES]) }]);
  // textPdf draws in Helvetica: the name's extent from the same font's widths.
  const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  const line = LINES[1]!;
  const start = line.x + helvetica.widthOfTextAtSize(line.text.slice(0, line.text.indexOf('Morgan')), line.size);
  const box = { x1: Math.floor(start) - 1, y1: line.y - 5, x2: Math.ceil(start + helvetica.widthOfTextAtSize('Morgan Castell', line.size)) + 1, y2: line.y + 13 };
  await admin.expect(201, 'POST', `/api/v1/documents/${document!.id}/redactions`, {
    redactions: [{ kind: 'rectangle', layer: 'B6', reason: 'name', coordinates: { page: 1, units: 'pdf_points', box } }],
  });

  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  await expect(page.locator('.page-frame[data-page="1"][aria-busy="false"]')).toBeVisible();
  await page.getByRole('button', { name: 'Preview as released' }).click();
  const pane = page.getByTestId('release-preview');
  await expect(pane.locator('.page-frame[aria-busy="false"]')).toBeVisible({ timeout: 60_000 });
  await expect(pane.getByRole('status')).toContainText('Page 1 as it will be released');
  await expect(page.getByTestId('redaction-overlay')).toHaveCount(0);

  // The preview canvas, grey, at its own pixel size.
  const shown = await pane.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const pixels: number[] = [];
    for (let index = 0; index < data.length; index += 4) pixels.push(Math.round(0.299 * data[index]! + 0.587 * data[index + 1]! + 0.114 * data[index + 2]!));
    return { width: canvas.width, height: canvas.height, pixels };
  });
  const ratio = shown.width / PAGE.width;
  const inBox = { x1: box.x1 * ratio + 3, x2: box.x2 * ratio - 3, y1: (PAGE.height - box.y2) * ratio + 3, y2: (PAGE.height - box.y1) * ratio - 3 };
  expect(darkShare(shown, inBox)).toBeGreaterThan(0.75);

  // A real export of the case, page 1, rendered by poppler at the canvas's size: equal outside the box.
  const queued = await admin.expect<{ data: { id: string } }>(202, 'POST', '/api/v1/exports', { case_id: created.id });
  let status = '';
  for (let tries = 0; tries < 300 && !['completed', 'failed', 'cancelled'].includes(status); tries += 1) {
    status = (await admin.expect<{ data: { status: string } }>(200, 'GET', `/api/v1/exports/${queued.data.id}`)).data.status;
    if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(status).toBe('completed');
  const link = (await admin.expect<{ data: { url: string } }>(200, 'GET', `/api/v1/exports/${queued.data.id}/download-url`)).data.url;
  const exported = Buffer.from(await (await fetch(link)).arrayBuffer());
  const released = popplerGrey(exported, shown.width, shown.height);
  expect(darkShare(released, inBox)).toBeGreaterThan(0.75);
  // Two renderers anti-alias glyph edges differently; a pixel counts as different past 96 grey levels.
  let differing = 0;
  for (let index = 0; index < shown.pixels.length; index += 1) if (Math.abs(shown.pixels[index]! - released.pixels[index]!) > 96) differing += 1;
  expect(differing / shown.pixels.length).toBeLessThan(0.005);
  // The page is mostly white, so also compare the ink outside the box: at least 75% of what poppler draws
  // dark (< 100) is dark (< 160) in the preview too (glyph edges resample differently; a blank or shifted
  // preview scores near 0), and dark preview pixels where poppler's page is white stay under 10% of the ink.
  const outside = (index: number) => {
    const x = index % shown.width;
    const y = Math.floor(index / shown.width);
    return x < inBox.x1 - 6 || x > inBox.x2 + 6 || y < inBox.y1 - 6 || y > inBox.y2 + 6;
  };
  let ink = 0;
  let inkShown = 0;
  let strayInk = 0;
  for (let index = 0; index < shown.pixels.length; index += 1) {
    if (!outside(index)) continue;
    if (released.pixels[index]! < 100) {
      ink += 1;
      if (shown.pixels[index]! < 160) inkShown += 1;
    } else if (released.pixels[index]! > 230 && shown.pixels[index]! < 100) strayInk += 1;
  }
  expect(ink).toBeGreaterThan(2000);
  expect(inkShown / ink).toBeGreaterThan(0.75);
  expect(strayInk / ink).toBeLessThan(0.1);

  // An unsaved box is not in the preview, and the viewer says so.
  await page.getByRole('button', { name: 'Preview as released' }).click();
  const overlay = page.getByTestId('redaction-overlay');
  const area = (await overlay.boundingBox())!;
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  await page.mouse.move(area.x + 80, area.y + 200);
  await page.mouse.down();
  await page.mouse.move(area.x + 240, area.y + 230, { steps: 4 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Preview as released' }).click();
  await expect(pane.getByRole('status')).toContainText('1 unsaved change is not shown');
  await expect(pane.locator('.page-frame[aria-busy="false"]')).toBeVisible({ timeout: 60_000 });

  await saveScreenshot(page, 'preview-as-released');
  await testInfo.attach('preview-as-released', { body: await page.screenshot(), contentType: 'image/png' });
  console.log(`preview: canvas ${shown.width}×${shown.height}, ${differing} pixels differ from poppler's rendering of the export; ${inkShown} of ${ink} ink pixels shown, ${strayInk} stray`);
});
