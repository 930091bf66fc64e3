import { dropFiles } from './support/dom.js';
import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

test('documents are added by drag-and-drop with progress, and scanned with live progress', async ({ admin, signedIn: page }) => {
  const created = await admin.createCase(`Upload case ${Date.now()}`);
  await page.goto(`/#/cases/${created.id}`);
  await expect(page.getByRole('heading', { name: created.name })).toBeVisible();

  const first = await textPdf([[{ text: 'Memo one', x: 72, y: 700, size: 14 }]]);
  // Large enough to show progress in steps: about 2 MB of incompressible filler after the text.
  const second = await textPdf([[{ text: 'Memo two', x: 72, y: 700, size: 14 }], ...Array.from({ length: 40 }, (_, index) => [{ text: `Page ${index + 2} ${'x'.repeat(60)}`, x: 72, y: 700, size: 12 }])]);
  const notAccepted = Buffer.from('just some words, not a document');

  const progress: number[] = [];
  await page.exposeFunction('reportProgress', (value: number) => progress.push(value));
  await page.evaluate(() => {
    // Records every progress value shown while the upload runs.
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('.upload-list [role=progressbar]')) {
        const value = bar.getAttribute('aria-valuenow');
        if (value !== null) (window as unknown as { reportProgress(value: number): void }).reportProgress(Number(value));
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'], childList: true });
  });

  await dropFiles(page, page.locator('.dropzone'), [
    { name: 'memo-one.pdf', type: 'application/pdf', bytes: first },
    { name: 'memo-two.pdf', type: 'application/pdf', bytes: second },
    { name: 'tools.exe', type: 'application/x-msdownload', bytes: notAccepted },
  ]);
  // A program is refused before anything is sent, in plain words; the PDFs go through.
  await expect(page.getByRole('alert').filter({ hasText: 'Not added' })).toContainText('tools.exe: not a file Obscura takes: PDF, image, audio, video, e-mail, Office or text');
  const table = page.getByRole('table', { name: 'Documents' });
  await expect(table.getByRole('link', { name: 'memo-one.pdf' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'memo-two.pdf' })).toBeVisible();
  expect(progress).toContain(100);

  // Stored: the server has exactly the bytes dropped.
  const documents = await admin.expect<{ data: { id: string; fileName: string; size: number }[] }>(200, 'GET', `/api/v1/cases/${created.id}/documents`);
  expect(documents.data.map((document) => [document.fileName, document.size])).toEqual([
    ['memo-one.pdf', first.length],
    ['memo-two.pdf', second.length],
  ]);

  // Scan: the button shows the running job, then its outcome.
  const row = page.locator(`tr[data-document-id="${documents.data[0]!.id}"]`);
  await row.getByRole('button', { name: 'Scan' }).click();
  await expect(row.locator('[data-job-status]').first()).toHaveAttribute('data-job-status', /queued|running|completed/);
  await expect(row.locator('[data-job-status="completed"]')).toContainText('clean', { timeout: 30_000 });
  const jobs = await admin.expect<{ data: { kind: string; status: string; result: { verdict: string } }[] }>(200, 'GET', `/api/v1/documents/${documents.data[0]!.id}/jobs`);
  expect(jobs.data.map((job) => [job.kind, job.status, job.result.verdict])).toEqual([['scan', 'completed', 'clean']]);
});

test('workflow buttons offer only the legal transitions, and comments are kept', async ({ admin, signedIn: page }) => {
  const created = await admin.createCase(`Workflow case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'letter.pdf', bytes: await textPdf([[{ text: 'Dear requester', x: 72, y: 700, size: 14 }]]) }]);
  await page.goto(`/#/cases/${created.id}`);
  const actions = page.getByRole('group', { name: 'Workflow actions' });

  // Final steps (approve, send back, cancel) end in "…": they ask first.
  await expect(actions.getByRole('button')).toHaveText(['Start work', 'Cancel case…']);
  await actions.getByRole('button', { name: 'Start work' }).click();
  await expect(page.locator('.case-title-row .badge').first()).toHaveText('In progress');
  // The buttons follow the permissions, asked again after the change: wait for them rather than read once.
  await expect(actions.getByRole('button')).toHaveText(['Submit for review', 'Cancel case…']);
  await actions.getByRole('button', { name: 'Submit for review' }).click();
  await expect(actions.getByRole('button')).toHaveText(['Approve…', 'Send back…', 'Cancel case…']);
  await actions.getByRole('button', { name: 'Send back…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this case back?' });
  await confirm.getByLabel('Note for the case history (optional)').fill('Page 3 still shows the phone number.');
  await confirm.getByRole('button', { name: 'Send back' }).click();
  await expect(actions.getByRole('button')).toHaveText(['Start work', 'Cancel case…']);
  const history = await admin.expect<{ data: { action: string; details: { note?: string } | null }[] }>(200, 'GET', `/api/v1/cases/${created.id}/audit`);
  expect(JSON.stringify(history.data)).toContain('Page 3 still shows the phone number.');

  // Someone else moves the case meanwhile: the stale button's refusal is shown in words, nothing else changes.
  await admin.expect(200, 'POST', `/api/v1/cases/${created.id}/actions`, { action: 'cancel' });
  await actions.getByRole('button', { name: 'Start work' }).click();
  await expect(page.getByRole('alert')).toContainText(/cancelled/i);
  // The refusal brings the case up to date: a cancelled case offers no actions.
  await expect(page.locator('.case-title-row .badge').first()).toHaveText('Cancelled');
  await expect(actions.getByRole('button')).toHaveCount(0);
  const stored = await admin.expect<{ data: { status: string } }>(200, 'GET', `/api/v1/cases/${created.id}`);
  expect(stored.data.status).toBe('cancelled');

  // Comments on a document.
  await page.reload();
  await page.locator(`tr[data-document-id="${document!.id}"] td`).nth(1).click();
  const comments = page.getByRole('complementary', { name: 'Comments' });
  await comments.getByLabel('Add a comment').fill('Page 2 needs a second look.');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByRole('list', { name: 'Comments' })).toContainText('Page 2 needs a second look.');
  await expect(comments.getByLabel('Add a comment')).toHaveValue('');
  const listed = await admin.expect<{ data: { text: string }[] }>(200, 'GET', `/api/v1/documents/${document!.id}/comments`);
  expect(listed.data.map((comment) => comment.text)).toEqual(['Page 2 needs a second look.']);
});

test('an upload cut off midway resumes with "Try again" and creates each document once', async ({ admin, signedIn: page }) => {
  const created = await admin.createCase(`Resume case ${Date.now()}`);
  await page.goto(`/#/cases/${created.id}`);
  const first = await textPdf([[{ text: 'First file', x: 72, y: 700, size: 14 }]]);
  const second = await textPdf([[{ text: 'Second file', x: 72, y: 700, size: 14 }]]);
  // The second file's PUT fails once, as when the network drops.
  let cut = 0;
  await page.route('**/files/uploads/*', async (route) => {
    if (route.request().method() === 'PUT' && route.request().postDataBuffer()?.equals(second) && cut === 0) {
      cut += 1;
      await route.abort('connectionreset');
      return;
    }
    await route.fallback();
  });
  await dropFiles(page, page.locator('.dropzone'), [
    { name: 'first.pdf', type: 'application/pdf', bytes: first },
    { name: 'second.pdf', type: 'application/pdf', bytes: second },
  ]);
  await expect(page.locator('.upload-summary')).toContainText('Upload stopped: 1 of 2 files');
  await expect(page.locator('.upload-summary')).toContainText('could not reach its server');
  expect((await admin.expect<{ data: unknown[] }>(200, 'GET', `/api/v1/cases/${created.id}/documents`)).data).toHaveLength(0);

  await page.locator('.upload-summary').getByRole('button', { name: 'Try again' }).click();
  const table = page.getByRole('table', { name: 'Documents' });
  await expect(table.getByRole('link', { name: 'second.pdf' })).toBeVisible();
  const documents = await admin.expect<{ data: { fileName: string; size: number }[] }>(200, 'GET', `/api/v1/cases/${created.id}/documents`);
  expect(documents.data.map((document) => [document.fileName, document.size])).toEqual([
    ['first.pdf', first.length],
    ['second.pdf', second.length],
  ]);
});

test('detection runs with a chosen template', async ({ admin, signedIn: page }) => {
  const template = (
    await admin.expect<{ data: { id: string; name: string } }>(201, 'POST', '/api/v1/templates', {
      name: `Vendor names ${Date.now()}`,
      custom_terms: ['Globex Supply'],
      layer: 'B4',
    })
  ).data;
  const created = await admin.createCase(`Template case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [
    { name: 'invoice.pdf', bytes: await textPdf([[{ text: 'Invoice from Globex Supply for park benches', x: 72, y: 700, size: 14 }]]) },
  ]);
  await page.goto(`/#/cases/${created.id}`);
  const row = page.locator(`tr[data-document-id="${document!.id}"]`);
  const slot = (kind: string) => row.locator('.job-slot').filter({ has: page.locator(`[data-job="${kind}"]`) });
  await row.getByRole('button', { name: 'OCR' }).click();
  await expect(slot('ocr').locator('[data-job-status="completed"]')).toBeVisible({ timeout: 60_000 });
  await row.getByLabel('Detection template').selectOption({ label: template.name });
  await row.getByRole('button', { name: 'Detect' }).click();
  await expect(slot('detection').locator('[data-job-status="completed"]')).toContainText('1 suggestion', { timeout: 60_000 });

  const jobs = await admin.expect<{ data: { kind: string; options: { template_id?: string } }[] }>(200, 'GET', `/api/v1/documents/${document!.id}/jobs`);
  expect(jobs.data.find((job) => job.kind === 'detection')?.options.template_id).toBe(template.id);
  const stored = await admin.expect<{ redactions: { layer: string; state: string }[] }>(200, 'GET', `/api/redactions/${document!.id}`);
  expect(stored.redactions.map((box) => [box.layer, box.state])).toEqual([['B4', 'pending']]);
});
