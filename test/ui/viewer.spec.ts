import { randomUUID } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { ApiClient } from './support/api.js';
import { dragBox, screenPoint } from './support/dom.js';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { scannedPdf, textPdf } from './support/pdfs.js';
import { testSans } from '../helpers/canvas-font.js';

interface StoredBox {
  redaction_id: string;
  page_number: number;
  redaction_type: string;
  layer: string;
  redaction_reason: string | null;
  classification_type: string | null;
  state: string;
  pdf_x1: number;
  pdf_y1: number;
  pdf_x2: number;
  pdf_y2: number;
  pdf_polygon_points: { x: number; y: number }[];
}

interface StoredList {
  redactions: StoredBox[];
  versions: Record<string, { version: number; version_id: string }>;
}

const LETTER = [
  [
    { text: 'Request 2026-0142: records of the parks department', x: 72, y: 720, size: 14 },
    { text: 'Applicant: Jordan Avery, 12 Elm Street', x: 72, y: 690, size: 14 },
    { text: 'Internal note: see the attached memo', x: 72, y: 660, size: 14 },
    { text: 'Signed by the records officer', x: 72, y: 630, size: 14 },
  ],
  [{ text: 'Second page: attachment list', x: 72, y: 720, size: 14 }],
];

// Documents here stay as uploaded: automatic processing (on by default) would add detection suggestions.
test.beforeEach(async ({ admin }) => {
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: false });
});
async function openDocument(admin: ApiClient, title: string) {
  const created = await admin.createCase(`${title} ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'letter.pdf', bytes: await textPdf(LETTER) }]);
  return { caseId: created.id, documentId: document!.id };
}

test('draw with every tool on chosen layers, save per layer, and read it all back', async ({ admin, signedIn: page }) => {
  const { caseId, documentId } = await openDocument(admin, 'Viewer case');
  await page.goto(`/#/documents/${documentId}?case=${caseId}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await expect(page.getByRole('button', { name: /^Page 2/ })).toBeVisible();

  // Rectangle on B6 with a reason, over the applicant's name.
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B6 / }).check();
  await page.getByLabel('Reason (optional)').fill('Name of a private person');
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  await dragBox(page, overlay, { x: 140, y: 704 }, { x: 240, y: 684 });

  // Polygon on B5 (keyboard: 5 picks the layer, P the tool), closed with Enter.
  await page.getByLabel('Reason (optional)').fill('');
  // Shortcuts work outside text fields only.
  await page.getByLabel('Reason (optional)').blur();
  await page.keyboard.press('5');
  await page.keyboard.press('p');
  for (const [x, y] of [[72, 675], [250, 675], [250, 655], [72, 655]] as const) {
    const point = await screenPoint(overlay, x, y);
    await page.mouse.click(point.x, point.y);
  }
  await page.keyboard.press('Enter');

  // Freehand on B7.
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B7 / }).check();
  await page.getByRole('radio', { name: 'Freehand' }).click();
  const stroke = [[80, 640], [120, 628], [160, 640], [200, 626], [240, 640], [240, 620], [80, 620]] as const;
  const start = await screenPoint(overlay, stroke[0][0], stroke[0][1]);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (const [x, y] of stroke.slice(1)) {
    const point = await screenPoint(overlay, x, y);
    await page.mouse.move(point.x, point.y, { steps: 5 });
  }
  await page.mouse.up();

  // Page 2, full page on B1: refused until a classification is chosen.
  await page.keyboard.press('PageDown');
  await expect(page.getByLabel('Page number')).toHaveValue('2');
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B1 / }).check();
  await page.getByRole('radio', { name: 'Full page' }).click();
  await overlay.click({ position: { x: 50, y: 50 } });
  await expect(page.getByText('Choose the classification level before drawing on B1.')).toBeVisible();
  await page.getByLabel('Classification (required for B1)').selectOption('secret');
  await overlay.click({ position: { x: 50, y: 50 } });

  await expect(page.getByTestId('save-state')).toHaveText('4 unsaved changes (B1, B5, B6, B7)');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');

  const stored = await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`);
  const byLayer = Object.fromEntries(stored.redactions.map((box) => [box.layer, box]));
  expect(Object.keys(byLayer).sort()).toEqual(['B1', 'B5', 'B6', 'B7']);
  expect(Object.keys(stored.versions).sort()).toEqual(['B1', 'B5', 'B6', 'B7']);
  expect(byLayer.B6).toMatchObject({ page_number: 1, redaction_type: 'rectangle', redaction_reason: 'Name of a private person', state: 'accepted' });
  // Drawn in screen pixels, stored in PDF points: within a point of where the mouse went.
  expect(byLayer.B6!.pdf_x1).toBeCloseTo(140, 0);
  expect(byLayer.B6!.pdf_y1).toBeCloseTo(684, 0);
  expect(byLayer.B6!.pdf_x2).toBeCloseTo(240, 0);
  expect(byLayer.B6!.pdf_y2).toBeCloseTo(704, 0);
  expect(byLayer.B5).toMatchObject({ redaction_type: 'polygon', redaction_reason: null });
  expect(byLayer.B5!.pdf_polygon_points).toHaveLength(4);
  expect(byLayer.B7!.redaction_type).toBe('freehand');
  expect(byLayer.B7!.pdf_polygon_points.length).toBeGreaterThanOrEqual(3);
  expect(byLayer.B1).toMatchObject({ page_number: 2, redaction_type: 'rectangle', classification_type: 'secret', pdf_x1: 0, pdf_y1: 0, pdf_x2: 612, pdf_y2: 792 });

  // A reload shows what the server has; removing a saved box and saving deletes it.
  await page.reload();
  await expect(page.getByLabel('Page number')).toHaveValue('1');
  await expect(overlay.locator('g.redaction')).toHaveCount(3);
  await saveScreenshot(page, 'viewer');
  await page.getByRole('radio', { name: 'Select' }).click();
  await page.locator(`g.redaction[data-layer="B7"]`).dispatchEvent('pointerdown', { button: 0 });
  await page.keyboard.press('Delete');
  await expect(overlay.locator('g.redaction')).toHaveCount(2);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  const after = await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`);
  expect(after.redactions.map((box) => box.layer).sort()).toEqual(['B1', 'B5', 'B6']);
  expect(after.versions.B7?.version).toBe(2);
});

test('409: someone saved the layer first; the user reloads and re-applies without losing the box', async ({ admin, signedIn: page }) => {
  const { caseId, documentId } = await openDocument(admin, 'Conflict case');
  await page.goto(`/#/documents/${documentId}?case=${caseId}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();

  // Another session saves B6 after the viewer loaded it.
  const theirs = randomUUID();
  await admin.expect(201, 'POST', `/api/redactions/${documentId}`, {
    redactions: [{ redaction_id: theirs, page_number: 1, redaction_type: 'rectangle', layer: 'B6', pdf_x1: 72, pdf_y1: 620, pdf_x2: 200, pdf_y2: 640, pdf_polygon_points: [] }],
  });

  await page.getByTestId('layer-select').getByRole('radio', { name: /^B6 / }).check();
  await dragBox(page, overlay, { x: 140, y: 704 }, { x: 240, y: 684 });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Layer changed by someone else' });
  await expect(dialog).toContainText('now at version 1');
  await expect(dialog).toContainText('Your 1 unsaved change is kept');
  await dialog.getByRole('button', { name: 'Reload and re-apply my changes' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  await expect(overlay.locator('g.redaction')).toHaveCount(2);

  const stored = await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`);
  expect(stored.redactions).toHaveLength(2);
  expect(stored.redactions.map((box) => box.redaction_id)).toContain(theirs);
  expect(stored.versions.B6?.version).toBe(2);
});

test('423: a layer held by another editor shows who holds it, and the change waits', async ({ admin, server, signedIn: page }) => {
  const { caseId, documentId } = await openDocument(admin, 'Lock case');
  // A second person, with the built-in redactor role, holds layer B6.
  const username = `editor-${Date.now().toString(36)}`;
  const password = 'correct horse battery staple';
  const user = (await admin.expect<{ data: { id: string } }>(201, 'POST', '/api/v1/users', { username, display_name: 'Robin Ellis', password })).data;
  const roles = await admin.expect<{ data: { id: string; name: string }[] }>(200, 'GET', '/api/v1/roles?limit=100');
  const redactor = roles.data.find((role) => role.name === 'redactor');
  await admin.expect(200, 'PUT', `/api/v1/users/${user.id}/roles/${redactor!.id}`);
  const other = await ApiClient.signIn(server.url, username, password);
  await other.expect(200, 'POST', `/api/redactions/${documentId}/layer/B6/lock`);

  await page.goto(`/#/documents/${documentId}?case=${caseId}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B6 / }).check();
  await dragBox(page, overlay, { x: 140, y: 704 }, { x: 240, y: 684 });
  // Taking the layer for editing already tells who has it.
  const notice = page.getByTestId('lock-notice');
  await expect(notice).toContainText('Layer B6 is being edited by Robin Ellis');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(notice).toContainText(`Robin Ellis (${username})`);
  await expect(page.getByTestId('save-state')).toHaveText('1 unsaved change (B6)');
  const before = await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`);
  expect(before.redactions).toHaveLength(0);

  // Once they let go, "Try again" saves the kept box.
  await other.expect(200, 'DELETE', `/api/redactions/${documentId}/layer/B6/lock`);
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  await expect(notice).toHaveCount(0);
  const after = await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`);
  expect(after.redactions.map((box) => box.layer)).toEqual(['B6']);
});

test('a save that cannot reach the server keeps every box; trying again saves them', async ({ admin, signedIn: page }) => {
  const { caseId, documentId } = await openDocument(admin, 'Offline case');
  await page.goto(`/#/documents/${documentId}?case=${caseId}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B6 / }).check();
  await dragBox(page, overlay, { x: 140, y: 704 }, { x: 240, y: 684 });
  await dragBox(page, overlay, { x: 72, y: 675 }, { x: 250, y: 655 });

  // The connection drops for the save request.
  await page.route(`**/api/redactions/${documentId}`, (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback()));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'could not reach its server' })).toBeVisible();
  await expect(page.getByTestId('save-state')).toHaveText('2 unsaved changes (B6)');
  await expect(overlay.locator('g.redaction.unsaved')).toHaveCount(2);
  expect((await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`)).redactions).toHaveLength(0);

  await page.unroute(`**/api/redactions/${documentId}`);
  await page.getByRole('alert').filter({ hasText: 'could not reach its server' }).getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  expect((await admin.expect<StoredList>(200, 'GET', `/api/redactions/${documentId}`)).redactions).toHaveLength(2);
});

test('leaving the viewer with unsaved boxes asks first', async ({ admin, signedIn: page }) => {
  const { caseId, documentId } = await openDocument(admin, 'Leave case');
  await page.goto(`/#/documents/${documentId}?case=${caseId}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await dragBox(page, overlay, { x: 140, y: 704 }, { x: 240, y: 684 });

  const questions: string[] = [];
  page.once('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: '‹ Case' }).click();
  await expect.poll(() => questions).toEqual(['You have 1 unsaved change on this document. Leave without saving them?']);
  // Stayed: the box is still there, unsaved, and the address is the document's.
  await expect(page.getByTestId('save-state')).toHaveText('1 unsaved change (B6)');
  expect(page.url()).toContain(`#/documents/${documentId}`);

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('link', { name: '‹ Case' }).click();
  await expect(page.getByRole('heading', { name: /Leave case/ })).toBeVisible();
});

test('OCR text and summary panels: run OCR from the viewer, read the page text, write a summary', async ({ admin, signedIn: page }) => {
  test.setTimeout(120_000);
  const created = await admin.createCase(`Panels case ${Date.now()}`);
  const lines = [
    { text: 'The parks department approved the playground budget.', x: 72, y: 700, size: 16 },
    { text: 'Work on the north field starts in April.', x: 72, y: 670, size: 16 },
  ];
  const [document] = await admin.upload(created.id, [{ name: 'minutes-scan.pdf', bytes: await scannedPdf([lines]) }]);
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  await expect(page.getByTestId('redaction-overlay')).toBeVisible();

  await page.getByRole('tab', { name: 'OCR text' }).click();
  await expect(page.getByText('This document has not been through OCR yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Run OCR' }).click();
  await expect(page.getByTestId('ocr-text')).toContainText('playground budget', { timeout: 90_000 });
  await expect(page.getByTestId('ocr-text')).toContainText('north field');

  await page.getByRole('tab', { name: 'Summary' }).click();
  await expect(page.getByText('No summary yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Summarize' }).click();
  await expect(page.getByTestId('summary-text')).toContainText(/parks department|playground|north field/, { timeout: 60_000 });
  const latest = await admin.expect<{ summary: string }>(200, 'GET', `/ai-summary/latest?doc_id=${document!.id}`);
  expect(latest.summary.length).toBeGreaterThan(0);
});

test('an image document is redacted in its own pixels', async ({ admin, signedIn: page }) => {
  const canvas = createCanvas(800, 600);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 800, 600);
  context.fillStyle = '#000000';
  context.font = `40px ${testSans()}`;
  context.fillText('Plate number QX-4471', 60, 120);
  const created = await admin.createCase(`Image case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'photo.png', bytes: canvas.toBuffer('image/png') }]);
  await page.goto(`/#/documents/${document!.id}?case=${created.id}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  const box = (await overlay.boundingBox())!;
  expect(box.width / box.height).toBeCloseTo(800 / 600, 2);
  const scale = box.width / 800;
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B7 / }).check();
  await page.mouse.move(box.x + 300 * scale, box.y + 80 * scale);
  await page.mouse.down();
  await page.mouse.move(box.x + 480 * scale, box.y + 130 * scale, { steps: 5 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  const stored = await admin.expect<{ redactions: { record_type: string; layer: string; image_x1: number; image_y1: number; image_x2: number; image_y2: number }[] }>(200, 'GET', `/api/redactions/${document!.id}`);
  expect(stored.redactions).toHaveLength(1);
  const saved = stored.redactions[0]!;
  expect(saved).toMatchObject({ record_type: 'image', layer: 'B7' });
  expect(saved.image_x1).toBeCloseTo(300, -0.5);
  expect(saved.image_y1).toBeCloseTo(80, -0.5);
  expect(saved.image_x2).toBeCloseTo(480, -0.5);
  expect(saved.image_y2).toBeCloseTo(130, -0.5);
});
