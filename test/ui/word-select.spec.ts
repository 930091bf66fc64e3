import { PDFDocument, StandardFonts } from 'pdf-lib';
import { dragBox } from './support/dom.js';
import { expect, saveScreenshot, test } from './support/fixtures.js';
import { textPdf, type Line } from './support/pdfs.js';

// The Words tool: a drag over text makes one box per line, snapped to the words it touched (from the stored
// words of the text layer), not the dragged rectangle.

const LINES: Line[] = [
  { text: 'Request 2026-0311: permits of the harbour office', x: 72, y: 720, size: 14 },
  { text: 'Applicant: Rowan Ellery, 9 Mill Road', x: 72, y: 690, size: 14 },
  { text: 'Phone 555-0143 and e-mail on file', x: 72, y: 660, size: 14 },
];

interface StoredBox {
  page_number: number;
  redaction_type: string;
  pdf_x1: number;
  pdf_y1: number;
  pdf_x2: number;
  pdf_y2: number;
}

// Documents here stay as uploaded: automatic processing (on by default) would add detection suggestions.
test.beforeEach(async ({ admin }) => {
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: false });
});
test('dragging with the Words tool redacts the words touched, one box per line, snapped to them', async ({ admin, signedIn: page }) => {
  const created = await admin.createCase(`Words case ${Date.now()}`);
  const [document] = await admin.upload(created.id, [{ name: 'permit.pdf', bytes: await textPdf([LINES]) }]);
  const id = document!.id;
  // The words are stored by the OCR job (which reads the text layer of a born-digital page).
  await admin.expect(202, 'POST', '/ocr/status', { doc_id: id });
  await expect.poll(async () => (await admin.call<{ status: string }>('POST', '/ocr/latest-status', { doc_id: id })).body.status, { timeout: 60_000 }).toBe('completed');

  await page.goto(`/#/documents/${id}?case=${created.id}`);
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await page.getByRole('radio', { name: 'Words' }).click();
  await expect(page.getByRole('radio', { name: 'Words' })).toHaveAttribute('aria-checked', 'true');

  // From the middle of "Rowan" (line 2) to the middle of "555-0143" (line 3): two lines, partial words.
  const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  const at = (line: Line, prefix: string) => line.x + helvetica.widthOfTextAtSize(prefix, line.size);
  const [, second, third] = LINES as [Line, Line, Line];
  await dragBox(page, overlay, { x: at(second, 'Applicant: Ro'), y: 694 }, { x: at(third, 'Phone 555-01'), y: 664 });
  await expect(page.getByTestId('save-state')).toHaveText('2 unsaved changes (B6)');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');

  const stored = (await admin.expect<{ redactions: StoredBox[] }>(200, 'GET', `/api/redactions/${id}`)).redactions.sort((a, b) => b.pdf_y1 - a.pdf_y1);
  expect(stored).toHaveLength(2);
  // Snapped exactly to the stored words (to 0.01 pt): the drag started inside "Rowan" and ended inside "555-0143".
  const text = await admin.expect<{ pages: { words: { text: string; x1: number; x2: number; y1: number; y2: number }[] }[] }>(200, 'GET', `/ocr/text?doc_id=${id}&words=true`);
  const word = (name: string) => text.pages[0]!.words.find((entry) => entry.text.replace(/[,:]$/, '') === name)!;
  const near = (value: number, expected: number) => expect(Math.abs(value - expected), `${value} vs ${expected}`).toBeLessThanOrEqual(0.011);
  near(stored[0]!.pdf_x1, word('Rowan').x1);
  near(stored[0]!.pdf_x2, word('Road').x2);
  near(stored[1]!.pdf_x1, word('Phone').x1);
  near(stored[1]!.pdf_x2, word('555-0143').x2);
  // And not the dragged rectangle: it began well inside "Rowan".
  expect(at(second, 'Applicant: Ro') - stored[0]!.pdf_x1).toBeGreaterThan(10);
  for (const [box, line] of [[stored[0]!, second], [stored[1]!, third]] as const) {
    expect(box.redaction_type).toBe('rectangle');
    expect(box.pdf_y1).toBeLessThanOrEqual(line.y);
    expect(box.pdf_y2).toBeGreaterThan(line.y + line.size * 0.6);
    expect(box.pdf_y2 - box.pdf_y1).toBeLessThan(line.size * 1.5);
  }

  // A drag over empty paper redacts nothing and says why.
  await dragBox(page, overlay, { x: 300, y: 300 }, { x: 400, y: 250 });
  await expect(page.getByTestId('word-note')).toContainText('No words under the selection on page 1');
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');
  await saveScreenshot(page, 'viewer-words');
});
