// The whole path, through the window only: sign in, create a case, upload a scanned PDF with a known
// SSN and name, run OCR and detection, accept the suggestions, draw one more box on B6, save, export as zip,
// download it, and check with pdftotext (an independent reader) what the released file contains.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dragBox, dropFiles } from './support/dom.js';
import { expect, saveScreenshot, signInThroughForm, test } from './support/fixtures.js';
import { scannedPdf, wordBox, type Line } from './support/pdfs.js';
import { readZip } from './support/zip.js';

const SSN = '218-54-3390';
const BADGE = 'K7731';
const LINES: Line[] = [
  { text: 'FREEDOM OF INFORMATION REQUEST 2026-0142', x: 72, y: 720, size: 16 },
  { text: 'Requester: Ms. Maria Alvarez', x: 72, y: 680, size: 16 },
  { text: `SSN: ${SSN}`, x: 72, y: 645, size: 16 },
  { text: 'Subject: parks department budget records', x: 72, y: 610, size: 16 },
  { text: `Case officer badge ${BADGE} assigned`, x: 72, y: 575, size: 16 },
];
const WITHHELD = [SSN, '3390', 'Alvarez', 'Maria', BADGE];
const KEPT = ['REQUEST', 'Requester', 'Subject', 'parks', 'department', 'budget', 'records', 'officer', 'badge', 'assigned'];

test('sign in → case → upload → OCR → detection → accept → B6 box → save → zip export → nothing withheld leaks', async ({ page, server, admin }) => {
  test.setTimeout(240_000);
  // The whole path exports an unreviewed case: the release safeguards (release.spec.ts) are turned off.
  const off = { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false };
  await admin.expect(200, 'PATCH', '/api/v1/release-settings', { safeguards: off });
  // This path clicks OCR and Detect itself; automatic processing (on by default) would run them first.
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: false });
  await signInThroughForm(page, server.username, server.password);

  // Create the case.
  const name = `Whole path ${Date.now()}`;
  await page.getByRole('button', { name: 'New case' }).click();
  await page.getByRole('dialog', { name: 'New case' }).getByLabel('Case name').fill(name);
  await page.getByRole('button', { name: 'Create case' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();

  // Upload the scanned request.
  await dropFiles(page, page.locator('.dropzone'), [{ name: 'request-scan.pdf', type: 'application/pdf', bytes: await scannedPdf([LINES]) }]);
  const row = page.locator('tr[data-document-id]').filter({ hasText: 'request-scan.pdf' });
  await expect(row).toBeVisible();

  // OCR, then detection, each watched to completion in the row.
  await row.getByRole('button', { name: 'OCR' }).click();
  await expect(row.locator('.job-slot').filter({ has: page.locator('[data-job="ocr"]') }).locator('[data-job-status="completed"]')).toBeVisible({ timeout: 120_000 });
  await row.getByRole('button', { name: 'Detect' }).click();
  const detection = row.locator('.job-slot').filter({ has: page.locator('[data-job="detection"]') }).locator('[data-job-status="completed"]');
  await expect(detection).toContainText(/[1-9]\d* suggestions?/, { timeout: 60_000 });
  await saveScreenshot(page, 'case');

  // Review: every suggestion accepted, from the viewer.
  await row.getByRole('link', { name: 'request-scan.pdf' }).click();
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await page.getByRole('tab', { name: /Suggestions/ }).click();
  await expect(page.locator('.suggestion-group[data-kind="ssn"]')).toBeVisible();
  await expect(page.locator('.suggestion-group[data-kind="person_name"]')).toBeVisible();
  await page.getByRole('button', { name: 'Accept all', exact: true }).first().click();
  await expect(page.getByText('No suggestions waiting.')).toBeVisible();

  // One more box, on B6, over the badge number.
  await page.getByRole('tab', { name: 'Redact' }).click();
  await page.getByTestId('layer-select').getByRole('radio', { name: /^B6 / }).check();
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  const badge = wordBox(LINES[4]!, BADGE);
  // Inside the word's extent: the export withholds every word a box comes within a few points of (word
  // boxes are estimates), and the neighbours "badge" and "assigned" must stay readable.
  await dragBox(page, overlay, { x: badge.x1 + 4, y: badge.y2 + 2 }, { x: badge.x2 - 4, y: badge.y1 - 2 });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  await saveScreenshot(page, 'viewer-redacted');

  // Export as zip from the case and download it.
  await page.getByRole('link', { name: '‹ Case' }).click();
  await page.getByRole('button', { name: 'Export (internal)…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await dialog.getByRole('radio', { name: /ZIP/ }).check();
  await dialog.getByRole('button', { name: 'Start export' }).click();
  const status = dialog.getByTestId('export-status');
  await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await saveScreenshot(page, 'export-dialog');
  const [download] = await Promise.all([page.waitForEvent('download'), status.getByRole('button', { name: /Download/ }).click()]);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-ui-export-'));
  const zipPath = path.join(folder, download.suggestedFilename());
  await download.saveAs(zipPath);

  // What was released: every PDF in the archive, read back by pdftotext.
  const files = await readZip(zipPath);
  const pdfs = [...files].filter(([file]) => file.startsWith('documents/') && file.toLowerCase().endsWith('.pdf'));
  expect(pdfs.length).toBe(1);
  let text = '';
  for (const [file, bytes] of pdfs) {
    const target = path.join(folder, path.basename(file));
    fs.writeFileSync(target, bytes);
    text += execFileSync('pdftotext', ['-layout', target, '-'], { encoding: 'utf8' });
  }
  for (const secret of WITHHELD) expect(text, `"${secret}" must not survive the export`).not.toContain(secret);
  for (const word of KEPT) expect(text, `"${word}" should still be readable`).toContain(word);

  // The server agrees on what was applied.
  const exports = await admin.expect<{ data: { case_id: string; format: string; summary: { redactions: number } }[] }>(200, 'GET', '/api/v1/exports');
  const ours = exports.data.find((item) => item.format === 'zip' && item.summary.redactions >= 3);
  expect(ours).toBeTruthy();
  fs.rmSync(folder, { recursive: true, force: true });
});
