import { dropFiles } from './support/dom.js';
import { ApiClient } from './support/api.js';
import { uiServer } from './support/env.js';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { encryptedPdf, scannedPdf, textPdf, type Line } from './support/pdfs.js';

// Upload → automatic processing → progress: files dropped into a case run scan → OCR → detection without a
// click; the case shows the progress with an ETA, each row its step, failures by file name and reason, and
// the suggestions detection made arrive in the queue by themselves.
//
// The global setup turns automatic processing off for the shared server (other specs count their own jobs).
// This file turns it on for the organization and puts the previous value back afterwards; the UI tests run
// one spec at a time (playwright.config.ts: workers 1, not fully parallel), so no other spec sees it on.

test.describe.configure({ mode: 'serial' });

let previous: boolean | null = null;

async function apiClient(): Promise<ApiClient> {
  const server = uiServer();
  return ApiClient.signIn(server.url, server.username, server.password);
}

test.beforeAll(async () => {
  const client = await apiClient();
  previous = (await client.expect<{ data: { auto_process: boolean } }>(200, 'GET', '/api/v1/processing-settings')).data.auto_process;
  await client.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: true });
});

test.afterAll(async () => {
  if (previous === null) return;
  await (await apiClient()).expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: previous });
});

const LETTER: Line[] = [
  { text: 'Claimant record for the parks grievance', x: 72, y: 720, size: 12 },
  { text: 'Reply to mara.quinn@example.org by Friday', x: 72, y: 700, size: 12 },
];
const SCAN: Line[] = [
  { text: 'BENEFITS FORM 2026-0311', x: 72, y: 720, size: 16 },
  { text: 'SSN: 512-44-7781', x: 72, y: 680, size: 16 },
  { text: 'Signed at the county office', x: 72, y: 640, size: 16 },
];

interface Progress {
  data: { done: number; failed: number; documents: { file_name: string; state: string }[]; failures: { file_name: string; reason: string }[] };
}

test('dropped files are processed automatically, with progress, ETA, failures and suggestions', async ({ admin, signedIn: page }, testInfo) => {
  test.setTimeout(180_000);
  const created = await admin.createCase(`Automatic case ${Date.now()}`);
  await page.goto(`/#/cases/${created.id}`);
  const panel = page.getByRole('region', { name: 'Processing' });

  const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('this is not a PDF body, only its first line is\n'.repeat(20))]);
  await dropFiles(page, page.locator('.dropzone'), [
    { name: 'letter.pdf', type: 'application/pdf', bytes: await textPdf([LETTER]) },
    { name: 'benefits-scan.pdf', type: 'application/pdf', bytes: await scannedPdf([SCAN, SCAN]) },
    { name: 'broken.pdf', type: 'application/pdf', bytes: broken },
  ]);
  const table = page.getByRole('table', { name: 'Documents' });
  const row = (name: string) => table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row('benefits-scan.pdf')).toBeVisible();

  // No click: the chain starts by itself. The scan's OCR takes seconds, so its row shows the running step and
  // the case an ETA measured from the steps already finished.
  const status = panel.getByRole('status', { name: 'Automatic processing status' });
  await expect(panel.getByRole('progressbar', { name: 'Automatic processing' })).toBeVisible();
  await expect(row('benefits-scan.pdf').locator('[data-auto-state]')).toHaveAttribute('data-auto-state', /^(scan|ocr|detection)$/);
  await expect(row('benefits-scan.pdf').locator('[data-auto-state]')).toContainText(/Automatic: (scan|OCR|detection) (queued|running)/);
  await expect(status).toContainText(/running · about \d+ (s|min) left/, { timeout: 60_000 });
  await saveScreenshot(page, 'auto-processing-running');
  await testInfo.attach('auto-processing-running', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  // Every row settles: two processed, the broken file failed with its name and the scan's reason.
  await expect(row('letter.pdf').locator('[data-auto-state]')).toHaveAttribute('data-auto-state', 'done', { timeout: 120_000 });
  await expect(row('benefits-scan.pdf').locator('[data-auto-state]')).toHaveAttribute('data-auto-state', 'done', { timeout: 120_000 });
  await expect(row('broken.pdf').locator('[data-auto-state]')).toHaveAttribute('data-auto-state', 'failed', { timeout: 60_000 });
  await expect(status).toHaveText('2 of 3 documents processed · 1 failed');
  await expect(panel.getByRole('progressbar', { name: 'Automatic processing' })).toHaveAttribute('aria-valuenow', '100');
  const failures = panel.getByRole('list', { name: 'Processing failures' }).getByRole('listitem');
  await expect(failures).toHaveCount(1);
  await expect(failures.first()).toContainText('broken.pdf:');
  await expect(failures.first()).toContainText(/could not|failed|invalid|error/i);
  // The automatic jobs show in the rows' own job buttons, like clicked ones.
  await expect(row('benefits-scan.pdf').locator('[data-job-status]')).toHaveCount(3);
  await expect(row('benefits-scan.pdf').locator('.job-state.completed')).toHaveCount(3);
  await expect(row('benefits-scan.pdf').locator('.job-state.completed').last()).toContainText(/\d+ suggestions?/);

  // Detection's suggestions reach the case's queue without a reload, text from the text layer and from OCR.
  const queue = page.getByRole('region', { name: /Suggestions to review/ }).getByRole('listbox', { name: 'Suggestions' });
  await expect(queue.getByRole('option').filter({ hasText: 'mara.quinn@example.org' })).toHaveCount(1);
  await expect(queue.getByRole('option').filter({ hasText: '512-44-7781' }).first()).toBeVisible();
  await saveScreenshot(page, 'auto-processing-done');
  await testInfo.attach('auto-processing-done', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  // The server agrees: the states, the failure's reason, and jobs started by no one but the chain.
  const progress = (await admin.expect<Progress>(200, 'GET', `/api/v1/cases/${created.id}/processing`)).data;
  expect(progress.documents.map((entry) => `${entry.file_name}:${entry.state}`)).toEqual(['letter.pdf:done', 'benefits-scan.pdf:done', 'broken.pdf:failed']);
  await expect(failures.first()).toContainText(progress.failures[0]!.reason);
  const documents = (await admin.expect<{ data: { id: string; fileName: string }[] }>(200, 'GET', `/api/v1/cases/${created.id}/documents`)).data;
  const scan = documents.find((document) => document.fileName === 'benefits-scan.pdf')!;
  const jobs = (await admin.expect<{ data: { kind: string; status: string }[] }>(200, 'GET', `/api/v1/documents/${scan.id}/jobs`)).data;
  expect(jobs.map((job) => `${job.kind}:${job.status}`)).toEqual(['scan:completed', 'ocr:completed', 'detection:completed']);
});

test('a password-protected upload waits for its password, then processes by itself', async ({ admin, signedIn: page }, testInfo) => {
  test.setTimeout(120_000);
  const created = await admin.createCase(`Automatic locked case ${Date.now()}`);
  const bytes = encryptedPdf(await textPdf([LETTER]), 'parks-2026');
  await page.goto(`/#/cases/${created.id}`);
  await dropFiles(page, page.locator('.dropzone'), [{ name: 'sealed-letter.pdf', type: 'application/pdf', bytes }]);
  const table = page.getByRole('table', { name: 'Documents' });
  const state = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'sealed-letter.pdf' }) }).locator('[data-auto-state]');
  await expect(state).toHaveAttribute('data-auto-state', 'needs_password');
  const panel = page.getByRole('region', { name: 'Processing' });
  await expect(panel.getByRole('list', { name: 'Processing failures' })).toContainText('sealed-letter.pdf: sealed-letter.pdf is password-protected');

  const prompt = page.getByRole('region', { name: 'Password-protected documents' });
  await prompt.getByLabel('Password for sealed-letter.pdf').fill('parks-2026');
  await prompt.getByRole('button', { name: 'Unlock' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(state).toHaveAttribute('data-auto-state', 'done', { timeout: 60_000 });
  await expect(page.getByRole('region', { name: /Suggestions to review/ }).getByRole('option').filter({ hasText: 'mara.quinn@example.org' })).toHaveCount(1);
  await testInfo.attach('auto-processing-after-unlock', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  const progress = (await admin.expect<Progress>(200, 'GET', `/api/v1/cases/${created.id}/processing`)).data;
  expect(progress.documents.map((entry) => entry.state)).toEqual(['done']);
});

test('files arriving through the API appear by themselves, and Process all waits for the automatic steps', async ({ admin, signedIn: page }) => {
  test.setTimeout(120_000);
  const created = await admin.createCase(`Automatic arrivals case ${Date.now()}`);
  await page.goto(`/#/cases/${created.id}`);
  const table = page.getByRole('table', { name: 'Documents' });
  await expect(table).toContainText('No documents yet');
  // Not through this window (as a watched folder or an integration would add them): the case view finds them.
  const documents = await admin.upload(created.id, [
    { name: 'api-letter.pdf', bytes: await textPdf([LETTER]) },
    { name: 'api-scan.pdf', bytes: await scannedPdf([SCAN]) },
  ]);
  await expect(table.getByRole('link', { name: 'api-scan.pdf' })).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('link', { name: 'api-letter.pdf' })).toBeVisible();

  // Process all while the chains run: it waits for their steps instead of starting the same steps again.
  const panel = page.getByRole('region', { name: 'Processing' });
  await panel.getByRole('button', { name: 'Process all' }).click();
  await expect(panel.getByRole('status')).toHaveText('2 of 2 documents processed.', { timeout: 90_000 });
  for (const document of documents) {
    const jobs = (await admin.expect<{ data: { kind: string; status: string }[] }>(200, 'GET', `/api/v1/documents/${document.id}/jobs`)).data;
    expect(jobs.map((job) => `${job.kind}:${job.status}`)).toEqual(['scan:completed', 'ocr:completed', 'detection:completed']);
  }
});

test('the organization switches automatic processing in Settings', async ({ admin, signedIn: page }, testInfo) => {
  const setting = async () => (await admin.expect<{ data: { auto_process: boolean } }>(200, 'GET', '/api/v1/processing-settings')).data.auto_process;
  await page.goto('/#/settings/processing');
  const box = page.getByRole('checkbox', { name: /Process new documents automatically/ });
  await expect(box).toBeChecked();
  await box.uncheck();
  await expect.poll(setting).toBe(false);
  await expect(box).not.toBeChecked();
  await testInfo.attach('processing-settings', { body: await page.screenshot(), contentType: 'image/png' });
  // Off: a new upload is listed as not started, and nothing runs.
  const created = await admin.createCase(`Automatic off case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'quiet.pdf', bytes: await textPdf([LETTER]) }]);
  const progress = (await admin.expect<Progress>(200, 'GET', `/api/v1/cases/${created.id}/processing`)).data;
  expect(progress.documents.map((entry) => entry.state)).toEqual(['not_started']);
  expect((await admin.expect<{ data: unknown[] }>(200, 'GET', `/api/v1/documents/${document!.id}/jobs`)).data).toEqual([]);
  await page.goto(`/#/cases/${created.id}`);
  await expect(page.getByTestId('auto-off')).toContainText('Automatic processing is off for this organization');

  await page.goto('/#/settings/processing');
  await page.getByRole('checkbox', { name: /Process new documents automatically/ }).check();
  await expect.poll(setting).toBe(true);
});
