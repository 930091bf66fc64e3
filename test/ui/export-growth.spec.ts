import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

interface ExportRecord {
  summary: { burn?: { vector_pages: number; grown?: { redaction_id: string; growth_pt: number }[] } | null } | null;
}

// A box that cuts letters (a thin band through the middle of a line): the letters go whole, the black grows over
// them, and the export dialog says by how much for that redaction.
test('the export dialog lists boxes grown to cover whole glyphs, with the growth in points', async ({ admin, signedIn: page }) => {
  const off = { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false };
  await admin.expect(200, 'PATCH', '/api/v1/release-settings', { safeguards: off });
  const created = await admin.createCase(`Growth case ${Date.now()}`);
  const bytes = await textPdf([[{ text: 'Home address 12 Linden Street', x: 72, y: 700, size: 14 }]]);
  const [document] = await admin.upload(created.id, [{ name: 'memo.pdf', bytes }]);
  await admin.expect(201, 'POST', `/api/v1/documents/${document!.id}/redactions`, {
    redactions: [{ kind: 'rectangle', layer: 'B6', reason: 'home address', coordinates: { page: 1, units: 'pdf_points', box: { x1: 160, y1: 703, x2: 300, y2: 706 } } }],
  });
  await page.goto(`/#/cases/${created.id}`);
  await page.getByRole('button', { name: 'Export (internal)…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await dialog.getByRole('radio', { name: /^PDF/ }).check();
  await dialog.getByRole('button', { name: 'Start export' }).click();
  await expect(dialog.getByTestId('export-status')).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  const list = await admin.expect<{ data: ExportRecord[] }>(200, 'GET', '/api/v1/exports');
  const grown = list.data[0]?.summary?.burn?.grown ?? [];
  expect(list.data[0]?.summary?.burn?.vector_pages).toBe(1);
  expect(grown).toHaveLength(1);
  // The line's letters reach from about 0.2 em below the baseline to 0.72 em above it: several points beyond.
  expect(grown[0]?.growth_pt).toBeGreaterThan(3);
  const listed = dialog.getByRole('list', { name: 'Boxes grown to cover whole glyphs' });
  await expect(listed).toContainText(`page 1: box grown by ${grown[0]?.growth_pt.toFixed(1)} pt to cover whole glyphs`);
  await page.screenshot({ path: test.info().outputPath('export-growth.png') });
});
