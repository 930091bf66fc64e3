import type { Locator, Page } from '@playwright/test';
import { greyTiffPages, scanImage } from '../helpers/ocr-fixtures.js';
import { canvasJpeg, colourImage, cutPieces, encodeJpeg, greyImage, regions, splitJpeg, tiffDirectory, writeTiff, type Rect } from '../helpers/tiff-writers.js';
import { expect, test } from './support/fixtures.js';

// A multi-page TIFF (browsers cannot show TIFF) is shown page by page and redacted in each page's own pixels.

interface StoredImageBox {
  record_type: string;
  layer: string;
  page_number: number;
  image_x1: number;
  image_y1: number;
  image_x2: number;
  image_y2: number;
}

// Different sizes and orientations, so each page's own size is what the viewer must use.
const PAGES = [
  { widthPx: 850, heightPx: 1100, lines: ['Incident report 2026-0311', 'Officer: Dana Whitfield'] },
  { widthPx: 1100, heightPx: 700, lines: ['Second page of the fax', 'Witness: Morgan Ellery, 44 Birch Road'] },
];

/** Dark pixels on the page's canvas: the TIFF's text really was drawn, not an empty frame. */
async function darkPixels(page: Page, pageNumber: number): Promise<number> {
  return page.locator(`[data-page="${pageNumber}"] canvas`).evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d');
    if (!context) return 0;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let index = 0; index < data.length; index += 4) if ((data[index] ?? 255) < 100 && (data[index + 3] ?? 0) > 0) count += 1;
    return count;
  });
}

async function expectAspect(overlay: Locator, width: number, height: number): Promise<void> {
  await expect.poll(async () => {
    const box = await overlay.boundingBox();
    return box ? box.width / box.height : 0;
  }).toBeCloseTo(width / height, 2);
}

test('a two-page TIFF is shown page by page and redacted on page 2 in its pixels', async ({ admin, signedIn: page }) => {
  const images = PAGES.map((options) => scanImage({ ...options, fontPx: 40 }));
  const tiff = greyTiffPages(images.map((image) => ({ grey: image.grey, width: image.width, height: image.height })));
  const created = await admin.createCase(`TIFF case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'fax.tif', bytes: tiff }]);
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);

  const overlay = page.getByTestId('redaction-overlay');
  await expect(page.locator('[data-page="1"]')).toHaveAttribute('aria-busy', 'false');
  await expectAspect(overlay, 850, 1100);
  expect(await darkPixels(page, 1)).toBeGreaterThan(500);
  await expect(page.getByRole('button', { name: /^Page 1/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Page 2/ })).toBeVisible();

  // The keyboard turns the page.
  await page.keyboard.press('PageDown');
  await expect(page.getByLabel('Page number')).toHaveValue('2');
  await expect(page.locator('[data-page="2"]')).toHaveAttribute('aria-busy', 'false');
  await expectAspect(overlay, 1100, 700);
  expect(await darkPixels(page, 2)).toBeGreaterThan(500);

  // A rectangle over the witness's name, given in page 2's pixels (origin top-left, y down).
  const target = { x1: 250, y1: 130, x2: 700, y2: 200 };
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B6 / }).check();
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  const box = (await overlay.boundingBox())!;
  const scale = box.width / 1100;
  await page.mouse.move(box.x + target.x1 * scale, box.y + target.y1 * scale);
  await page.mouse.down();
  await page.mouse.move(box.x + target.x2 * scale, box.y + target.y2 * scale, { steps: 5 });
  await page.mouse.up();
  await expect(overlay.locator('g.redaction')).toHaveCount(1);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');

  const stored = await admin.expect<{ redactions: StoredImageBox[] }>(200, 'GET', `/api/redactions/${document!.id}`);
  expect(stored.redactions).toHaveLength(1);
  const saved = stored.redactions[0]!;
  expect(saved).toMatchObject({ record_type: 'image', layer: 'B6', page_number: 2 });
  const slack = Math.max(3, 2 / scale);
  expect(Math.abs(saved.image_x1 - target.x1)).toBeLessThanOrEqual(slack);
  expect(Math.abs(saved.image_y1 - target.y1)).toBeLessThanOrEqual(slack);
  expect(Math.abs(saved.image_x2 - target.x2)).toBeLessThanOrEqual(slack);
  expect(Math.abs(saved.image_y2 - target.y2)).toBeLessThanOrEqual(slack);

  // The box belongs to page 2 only; the thumbnail of page 2 is marked.
  await expect(page.getByRole('button', { name: 'Page 2, has redactions' })).toBeVisible();
  await page.getByRole('button', { name: /^Page 1/ }).click();
  await expect(page.getByLabel('Page number')).toHaveValue('1');
  await expectAspect(overlay, 850, 1100);
  await expect(overlay.locator('g.redaction')).toHaveCount(0);
});

/** Mean red, green and blue of the page's canvas over a rectangle given in the image's pixels. */
async function meanColour(page: Page, pageNumber: number, imageWidth: number, rect: Rect): Promise<number[]> {
  return page.locator(`[data-page="${pageNumber}"] canvas`).evaluate(
    (canvas: HTMLCanvasElement, { imageWidth, rect }) => {
      const scale = canvas.width / imageWidth;
      const [x, y] = [Math.ceil(rect.x1 * scale), Math.ceil(rect.y1 * scale)];
      const [width, height] = [Math.floor((rect.x2 - rect.x1) * scale), Math.floor((rect.y2 - rect.y1) * scale)];
      const { data } = canvas.getContext('2d')!.getImageData(x, y, width, height);
      const sums = [0, 0, 0];
      for (let index = 0; index < data.length; index += 4) for (let channel = 0; channel < 3; channel += 1) sums[channel]! += data[index + channel] ?? 0;
      return sums.map((sum) => Math.round(sum / (width * height)));
    },
    { imageWidth, rect },
  );
}

test('a JPEG-in-TIFF is shown: grey JPEG strips with shared tables, then YCbCr JPEG tiles', async ({ admin, signedIn: page }) => {
  const [width, height] = [400, 300];
  const strips = cutPieces(greyImage(width, height), width, height, 1, { rowsPerStrip: 64 }).map((piece) =>
    splitJpeg(encodeJpeg({ width: piece.width, height: piece.height, samples: piece.samples, components: 1 })),
  );
  const tiles = cutPieces(colourImage(width, height), width, height, 3, { tileWidth: 128, tileLength: 128 }).map((piece) => canvasJpeg(piece.samples, piece.width, piece.height));
  const tiff = writeTiff([
    tiffDirectory({ width, height, samples: 1, photometric: 1, compression: 7, layout: { rowsPerStrip: 64 }, blocks: strips.map((part) => part.abbreviated), jpegTables: strips[0]!.tables }),
    tiffDirectory({ width, height, samples: 3, photometric: 6, compression: 7, layout: { tileWidth: 128, tileLength: 128 }, blocks: tiles }),
  ]);
  const created = await admin.createCase(`JPEG TIFF case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'scan.tif', bytes: tiff }]);
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  const overlay = page.getByTestId('redaction-overlay');
  const { dark, light } = regions(width, height);
  const inner = (rect: Rect): Rect => ({ x1: rect.x1 + 8, y1: rect.y1 + 8, x2: rect.x2 - 8, y2: rect.y2 - 8 });

  await expect(page.locator('[data-page="1"]')).toHaveAttribute('aria-busy', 'false');
  await expectAspect(overlay, width, height);
  expect(Math.max(...(await meanColour(page, 1, width, inner(dark))))).toBeLessThan(50);
  expect(Math.min(...(await meanColour(page, 1, width, inner(light))))).toBeGreaterThan(210);

  await page.keyboard.press('PageDown');
  await expect(page.locator('[data-page="2"]')).toHaveAttribute('aria-busy', 'false');
  const [r = 0, g = 0, b = 0] = await meanColour(page, 2, width, inner(dark));
  expect(r > 190 && g < 70 && b < 70, `the red block is red: ${[r, g, b].join(', ')}`).toBe(true);
  const [r2 = 0, g2 = 0, b2 = 0] = await meanColour(page, 2, width, inner(light));
  expect(r2 < 70 && g2 < 80 && b2 > 180, `the blue block is blue: ${[r2, g2, b2].join(', ')}`).toBe(true);
  await expect(page.getByTestId('tiff-refused')).toHaveCount(0);
});

test('a TIFF the viewer cannot read says why in plain words', async ({ admin, signedIn: page }) => {
  const image = scanImage({ widthPx: 300, heightPx: 200, lines: ['Fax'], fontPx: 40 });
  const tiff = greyTiffPages([{ grey: image.grey, width: image.width, height: image.height }]);
  // Mark the page as old-style JPEG-in-TIFF (Compression tag 259 = 6), a variant the converter refuses.
  expect(tiff.toString('latin1', 0, 2)).toBe('II');
  const directory = tiff.readUInt32LE(4);
  const entry = Array.from({ length: tiff.readUInt16LE(directory) }, (_, index) => directory + 2 + index * 12).find((at) => tiff.readUInt16LE(at) === 259);
  expect(entry).toBeDefined();
  tiff.writeUInt16LE(6, entry! + 8);
  const created = await admin.createCase(`TIFF refused ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'jpeg-in.tif', bytes: tiff }]);
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  await expect(page.getByTestId('tiff-refused')).toContainText('The viewer cannot show this TIFF file: its pages use an old form of JPEG inside the TIFF (compression 6)');
  await expect(page.getByTestId('redaction-overlay')).toHaveCount(0);
  await expect(page.getByText('Opening the document…')).toHaveCount(0);
});
