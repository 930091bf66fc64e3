import { expect, test } from './support/fixtures.js';
import { textPdf, type Line } from './support/pdfs.js';

// Case search in the window: search, look at every hit in context, leave one out, redact the rest, and
// read the boxes back over the API.

interface Job {
  id: string;
  status: string;
}

const MEMO: Line[] = [
  { text: 'Memo about the complaint filed by Jane', x: 72, y: 700, size: 12 },
  { text: 'Roe against the housing office in March', x: 72, y: 684, size: 12 },
  { text: 'JANE ROE asked for copies of her file', x: 72, y: 660, size: 12 },
];
const LETTER: Line[] = [{ text: 'Letter to Jane Roe from the city clerk', x: 72, y: 700, size: 12 }];

test('search a case, review the hits in context, leave one out and redact the rest', async ({ admin, signedIn: page }, testInfo) => {
  const created = await admin.createCase(`Search case ${Date.now()}`);
  const documents = await admin.upload(created.id, [
    { name: 'memo.pdf', bytes: await textPdf([MEMO]) },
    { name: 'letter.pdf', bytes: await textPdf([LETTER]) },
  ]);
  // The text layer is read by an OCR job; search reads what it stored.
  for (const document of documents) {
    const job = (await admin.expect<{ data: Job }>(202, 'POST', `/api/v1/documents/${document.id}/ocr-jobs`, {})).data;
    await expect
      .poll(async () => (await admin.expect<{ data: Job }>(200, 'GET', `/api/v1/jobs/${job.id}`)).data.status, { timeout: 30_000 })
      .toBe('completed');
  }

  await page.goto(`/#/cases/${created.id}`);
  const panel = page.getByRole('region', { name: 'Search this case' });
  await panel.getByLabel('Search for').fill('jane roe');
  await panel.getByRole('button', { name: 'Search' }).click();
  await expect(panel.getByText('3 hits in this case; 3 chosen for redaction.')).toBeVisible();
  const hits = panel.getByRole('list', { name: 'Search hits' }).getByRole('listitem');
  await expect(hits).toHaveCount(3);
  // The name broken across two lines is one hit, shown in its context.
  await expect(hits.first()).toContainText('filed by Jane Roe against');
  await expect(hits.first().locator('mark')).toHaveText('Jane Roe');

  // Leave the letter's hit out.
  await panel.getByRole('checkbox', { name: /letter\.pdf/ }).uncheck();
  await expect(panel.getByText('3 hits in this case; 2 chosen for redaction.')).toBeVisible();
  await testInfo.attach('search-hits', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  await panel.getByRole('button', { name: 'Redact 2 hits' }).click();
  await expect(panel.getByRole('status')).toContainText('3 redactions added for 2 hits in 1 document');
  await testInfo.attach('search-redacted', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

  type Listed = { data: { layer: string; state: string; coordinates: { page: number; box: { x1: number; y1: number; x2: number; y2: number } } }[] };
  const memo = await admin.expect<Listed>(200, 'GET', `/api/v1/documents/${documents[0]!.id}/redactions?limit=100`);
  const letter = await admin.expect<Listed>(200, 'GET', `/api/v1/documents/${documents[1]!.id}/redactions?limit=100`);
  expect(letter.data).toHaveLength(0);
  // "Jane" at the end of line 1, "Roe" at the start of line 2, "JANE ROE" on line 3: each box on its own baseline.
  expect(memo.data.map((box) => [box.layer, box.state])).toEqual([
    ['B6', 'accepted'],
    ['B6', 'accepted'],
    ['B6', 'accepted'],
  ]);
  const baselines = memo.data.map((box) => box.coordinates.box).map((box) => MEMO.findIndex((line) => box.y1 <= line.y && box.y2 >= line.y));
  expect(baselines).toEqual([0, 1, 2]);
  expect(memo.data[1]!.coordinates.box.x1).toBeCloseTo(72, 0);

  // Searching and redacting again adds nothing.
  await panel.getByRole('button', { name: 'Redact 2 hits' }).click();
  await expect(panel.getByRole('status')).toContainText('0 redactions added for 2 hits in 1 document (they were already redacted)');
});
