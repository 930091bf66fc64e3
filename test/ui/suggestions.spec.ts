import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

// The case's suggestions queue worked from the keyboard: move, accept one, reject one, and accept a value
// everywhere in the case; the counts follow, and the server holds the decisions.

interface Job {
  id: string;
  status: string;
}

test('suggestions are reviewed across the case by keyboard', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Queue case ${Date.now()}`);
  const documents = await admin.upload(created.id, [
    { name: 'intake.pdf', bytes: await textPdf([[{ text: 'Applicant SSN 123-45-6789 on file', x: 72, y: 700, size: 12 }, { text: 'Mail john.smith@example.com today', x: 72, y: 680, size: 12 }]]) },
    { name: 'followup.pdf', bytes: await textPdf([[{ text: 'Same SSN 123-45-6789 and 512-44-7781', x: 72, y: 700, size: 12 }]]) },
  ]);
  for (const document of documents) {
    for (const kind of ['ocr', 'detection']) {
      const job = (await admin.expect<{ data: Job }>(202, 'POST', `/api/v1/documents/${document.id}/${kind}-jobs`, {})).data;
      await expect.poll(async () => (await admin.expect<{ data: Job }>(200, 'GET', `/api/v1/jobs/${job.id}`)).data.status, { timeout: 30_000 }).toBe('completed');
    }
  }

  await page.goto(`/#/cases/${created.id}`);
  const panel = page.getByRole('region', { name: /Suggestions to review/ });
  const list = panel.getByRole('listbox', { name: 'Suggestions' });
  const options = list.getByRole('option');
  await expect(options).toHaveCount(4);
  await expect(panel.getByTestId('queue-count')).toHaveText('(4)');
  await expect(options.first()).toContainText('123-45-6789');
  await expect(options.first()).toContainText('intake.pdf · page 1');
  await expect(options.first()).toContainText('Applicant SSN 123-45-6789 on file');
  await testInfo.attach('suggestions-queue', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  // Keyboard: down to the e-mail address and reject it.
  await list.focus();
  await page.keyboard.press('j');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(1)).toContainText('john.smith@example.com');
  await page.keyboard.press('r');
  await expect(panel.getByTestId('queue-count')).toHaveText('(3)');
  await expect(panel.getByRole('status')).toContainText('Rejected “john.smith@example.com”');

  // Back to the first SSN and accept that number everywhere in the case.
  await page.keyboard.press('k');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Shift+A');
  await expect(panel.getByRole('status')).toContainText('Accepted “123-45-6789” everywhere in the case: 2 in 2 documents.');
  await expect(panel.getByTestId('queue-count')).toHaveText('(1)');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('512-44-7781');
  await testInfo.attach('suggestions-after', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  // A click opens the document at the suggestion's page with the suggestion highlighted.
  const remaining = await options.first().getAttribute('data-redaction-id');
  const clientId = (await admin.expect<{ data: { id: string; redaction_id: string }[] }>(200, 'GET', `/api/v1/documents/${documents[1]!.id}/redactions?limit=100`)).data.find((box) => box.id === remaining)?.redaction_id;
  await options.first().click();
  await panel.getByRole('link', { name: 'Open followup.pdf · page 1' }).click();
  await expect(page.getByLabel('Page number')).toHaveValue('1');
  await expect(page.locator(`.suggestion.selected[data-redaction-id="${clientId}"]`)).toHaveCount(1);
  await expect(page.locator('.suggestion.selected')).toHaveCount(1);
  await testInfo.attach('suggestion-in-viewer', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  type Listed = { data: { state: string; pending_reason: { entity?: string } | null }[] };
  const states = async (id: string) => (await admin.expect<Listed>(200, 'GET', `/api/v1/documents/${id}/redactions?limit=100`)).data.map((box) => `${box.pending_reason?.entity}:${box.state}`).sort();
  expect(await states(documents[0]!.id)).toEqual(['email:rejected', 'ssn:accepted']);
  expect(await states(documents[1]!.id)).toEqual(['ssn:accepted', 'ssn:pending']);
});
