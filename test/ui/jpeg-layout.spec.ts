import { createCanvas } from '@napi-rs/canvas';
import { expect, test } from './support/fixtures.js';
import { testSans } from '../helpers/canvas-font.js';

// An image document is laid out like a PDF page: the stage column takes the width between the (absent)
// thumbnails and the tools, and the picture is fitted to it.

test('a JPEG document fills the stage like a PDF page', async ({ admin, signedIn: page }, testInfo) => {
  const canvas = createCanvas(1200, 1600);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 1200, 1600);
  context.fillStyle = '#000000';
  context.font = `48px ${testSans()}`;
  context.fillText('Photographed receipt', 100, 200);
  const created = await admin.createCase(`JPEG case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'receipt.jpg', bytes: canvas.toBuffer('image/jpeg') }]);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  const picture = page.getByRole('img', { name: 'receipt.jpg' });
  await expect(picture).toBeVisible();
  const stage = await page.locator('.stage').boundingBox();
  const image = await picture.boundingBox();
  const tools = await page.getByRole('complementary', { name: 'Redaction tools' }).boundingBox();
  // Fit width: the stage spans from the left edge to the tools (no 140 px column), and the picture nearly fills it.
  expect(stage!.width).toBeGreaterThan(700);
  expect(stage!.x + stage!.width).toBeLessThanOrEqual(tools!.x + 1);
  expect(image!.width).toBeGreaterThan(stage!.width - 100);
  expect(image!.height / image!.width).toBeCloseTo(1600 / 1200, 1);
  await testInfo.attach('jpeg-layout', { body: await page.screenshot(), contentType: 'image/png' });
});
