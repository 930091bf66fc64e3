import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { encryptedPdf, textPdf, type Line } from './support/pdfs.js';

// A password-protected PDF (encrypted by qpdf here, AES-256) waits for its password: the case and the viewer
// show a prompt naming the file; a wrong password shows the server's reason and changes nothing; the right
// one decrypts a working copy that the viewer shows and the jobs read. Automatic processing is off for the
// shared server (global setup), so the OCR button is clicked here.

const LINES: Line[] = [
  { text: 'Sealed memo: water board settlement', x: 72, y: 720, size: 14 },
  { text: 'Contact darius.venn@example.net for terms', x: 72, y: 690, size: 14 },
];
const PASSWORD = 'Water-Board-7';

/** pdftotext's reading of a PDF (an independent reader of what the server now holds). */
function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-password-'));
  try {
    fs.writeFileSync(path.join(dir, 'file.pdf'), bytes);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'file.pdf'), '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Doc {
  data: { id: string; password_state: string | null; sha256: string; original_sha256: string | null };
}

test('a password PDF shows a prompt naming the file; a wrong password is refused, the right one opens it', async ({ admin, signedIn: page }, testInfo) => {
  test.setTimeout(120_000);
  const locked = encryptedPdf(await textPdf([LINES]), PASSWORD);
  // Without the password poppler cannot read it either.
  expect(() => pdfText(locked)).toThrow();
  const created = await admin.createCase(`Password case ${Date.now()}`);
  const [memo, second] = await admin.upload(created.id, [
    { name: 'sealed-memo.pdf', bytes: locked },
    { name: 'sealed-copy.pdf', bytes: encryptedPdf(await textPdf([[{ text: 'Second sealed page', x: 72, y: 700, size: 14 }]]), PASSWORD) },
  ]);
  const before = await admin.expect<Doc>(200, 'GET', `/api/v1/documents/${memo!.id}`);
  expect(before.data.password_state).toBe('needs_password');

  await page.goto(`/#/cases/${created.id}`);
  const prompts = page.getByRole('region', { name: 'Password-protected documents' });
  const form = prompts.getByRole('form', { name: 'Unlock sealed-memo.pdf' });
  await expect(form).toContainText('“sealed-memo.pdf” is password-protected. Enter its password to open and process it');
  await expect(prompts.getByRole('form', { name: 'Unlock sealed-copy.pdf' })).toBeVisible();

  // A wrong password: the API's reason, naming the file; nothing changes.
  await form.getByLabel('Password for sealed-memo.pdf').fill('water-board-7');
  await form.getByRole('button', { name: 'Unlock' }).click();
  await expect(form.getByRole('alert').locator('.banner-text')).toHaveText('The password does not open sealed-memo.pdf; check it (passwords are case-sensitive) and try again.');
  await saveScreenshot(page, 'password-prompt');
  await testInfo.attach('password-prompt-wrong', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  const still = await admin.expect<Doc>(200, 'GET', `/api/v1/documents/${memo!.id}`);
  expect(still.data).toMatchObject({ password_state: 'needs_password', sha256: before.data.sha256 });

  // The right one: the prompt goes, the document points at a decrypted working copy pdftotext can read.
  await form.getByLabel('Password for sealed-memo.pdf').fill(PASSWORD);
  await form.getByRole('button', { name: 'Unlock' }).click();
  await expect(form).toHaveCount(0);
  await expect(prompts.getByRole('form')).toHaveCount(1);
  const after = await admin.expect<Doc>(200, 'GET', `/api/v1/documents/${memo!.id}`);
  expect(after.data).toMatchObject({ password_state: 'decrypted', original_sha256: before.data.sha256 });
  const link = (await admin.expect<{ data: { url: string } }>(200, 'GET', `/api/v1/documents/${memo!.id}/download-url`)).data.url;
  expect(pdfText(Buffer.from(await (await fetch(link)).arrayBuffer()))).toContain('darius.venn@example.net');

  // Processable now: the row's OCR button reads its page.
  const row = page.getByRole('table', { name: 'Documents' }).getByRole('row').filter({ has: page.getByRole('link', { name: 'sealed-memo.pdf' }) });
  await row.getByRole('button', { name: 'OCR' }).click();
  await expect(row.locator('.job-state.completed').filter({ hasText: '1 page read' })).toBeVisible({ timeout: 60_000 });

  // The viewer of the other file shows the same prompt instead of a pdf.js error, and the page once unlocked.
  await page.goto(`/#/documents/${second!.id}?case=${created.id}`);
  const viewerPrompt = page.getByTestId('password-prompt');
  await expect(viewerPrompt).toContainText('“sealed-copy.pdf” is password-protected');
  await expect(page.locator('.page-frame')).toHaveCount(0);
  await testInfo.attach('password-prompt-viewer', { body: await page.screenshot(), contentType: 'image/png' });
  await viewerPrompt.getByLabel('Password for sealed-copy.pdf').fill(PASSWORD);
  await viewerPrompt.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.locator('.page-frame[data-page="1"][aria-busy="false"]')).toBeVisible({ timeout: 30_000 });
  await expect(viewerPrompt).toHaveCount(0);
  await testInfo.attach('password-unlocked-viewer', { body: await page.screenshot(), contentType: 'image/png' });
  expect((await admin.expect<Doc>(200, 'GET', `/api/v1/documents/${second!.id}`)).data.password_state).toBe('decrypted');
});
