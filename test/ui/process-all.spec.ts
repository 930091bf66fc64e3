import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

// "Process all": every document of the case through scan, OCR and detection with one click, progress shown
// per document, and the suggestions detection made waiting in the queue.

test('process all runs scan, OCR and detection on every document with progress', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Process case ${Date.now()}`);
  const documents = await admin.upload(created.id, [
    { name: 'one.pdf', bytes: await textPdf([[{ text: 'Claimant SSN 123-45-6789', x: 72, y: 700, size: 12 }]]) },
    { name: 'two.pdf', bytes: await textPdf([[{ text: 'Reply to jane.roe@example.org', x: 72, y: 700, size: 12 }]]) },
  ]);
  await page.goto(`/#/cases/${created.id}`);
  const panel = page.getByRole('region', { name: 'Processing' });
  await panel.getByRole('button', { name: 'Process all' }).click();
  await expect(panel.getByRole('progressbar', { name: 'Case processing' })).toBeVisible();
  await testInfo.attach('process-running', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  await expect(panel.getByRole('status')).toHaveText('2 of 2 documents processed.', { timeout: 60_000 });
  await expect(panel.locator('li[data-step="done"]')).toHaveCount(2);
  await expect(panel.getByRole('progressbar', { name: 'Case processing' })).toHaveAttribute('aria-valuenow', '100');
  await testInfo.attach('process-done', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  for (const document of documents) {
    const jobs = (await admin.expect<{ data: { kind: string; status: string }[] }>(200, 'GET', `/api/v1/documents/${document.id}/jobs`)).data;
    expect(jobs.map((job) => `${job.kind}:${job.status}`).sort()).toEqual(['detection:completed', 'ocr:completed', 'scan:completed']);
  }
  const queue = await admin.expect<{ data: { items: { kind: string; text: string }[] } }>(200, 'GET', `/api/v1/cases/${created.id}/suggestions`);
  expect(queue.data.items.map((item) => `${item.kind}:${item.text}`).sort()).toEqual(['email:jane.roe@example.org', 'ssn:123-45-6789']);

  // A second run skips what is done: no new jobs.
  await panel.getByRole('button', { name: 'Process all' }).click();
  await expect(panel.getByRole('status')).toHaveText('2 of 2 documents processed.');
  const again = (await admin.expect<{ data: unknown[] }>(200, 'GET', `/api/v1/documents/${documents[0]!.id}/jobs`)).data;
  expect(again).toHaveLength(3);
});
