import { expect, test } from './support/fixtures.js';
import { textPdf } from './support/pdfs.js';

interface ExportRecord {
  id: string;
  status: string;
  options: { method?: string };
  summary: { redactions: number; burn?: { vector_pages: number; raster_pages: number } | null } | null;
}

// The export dialog's "Flatten" choice reaches the export: redacted pages are then rebuilt from pictures
// instead of being redacted in their content (the default for born-digital pages).
test('an export can flatten its redacted pages into images; by default they are redacted in their content', async ({ admin, signedIn: page }) => {
  // This is about burn-in of an unreviewed case: the release safeguards (release.spec.ts) are turned off.
  const off = { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false };
  await admin.expect(200, 'PATCH', '/api/v1/release-settings', { safeguards: off });
  const created = await admin.createCase(`Flatten case ${Date.now()}`);
  const bytes = await textPdf([[{ text: 'Home address 12 Linden Street', x: 72, y: 700, size: 14 }]]);
  const [document] = await admin.upload(created.id, [{ name: 'memo.pdf', bytes }]);
  await admin.expect(201, 'POST', `/api/v1/documents/${document!.id}/redactions`, {
    redactions: [{ kind: 'rectangle', layer: 'B6', reason: 'home address', coordinates: { page: 1, units: 'pdf_points', box: { x1: 160, y1: 695, x2: 300, y2: 715 } } }],
  });

  const exportOnce = async (flatten: boolean): Promise<ExportRecord> => {
    await page.goto(`/#/cases/${created.id}`);
    // A fresh page each time: a new dialog, with a new idempotency key.
    await page.reload();
    await page.getByRole('button', { name: 'Export (internal)…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Export/ });
    await dialog.getByRole('radio', { name: /^PDF/ }).check();
    const box = dialog.getByRole('checkbox', { name: /Flatten redacted pages/ });
    await expect(box).not.toBeChecked();
    if (flatten) await box.check();
    await dialog.getByRole('button', { name: 'Start export' }).click();
    const status = dialog.getByTestId('export-status');
    await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    const list = await admin.expect<{ data: ExportRecord[] }>(200, 'GET', '/api/v1/exports');
    const newest = list.data[0];
    if (!newest) throw new Error('no export listed');
    return newest;
  };

  const flattened = await exportOnce(true);
  expect(flattened.options.method).toBe('raster');
  expect(flattened.summary?.redactions).toBe(1);
  expect(flattened.summary?.burn).toMatchObject({ vector_pages: 0, raster_pages: 1 });

  const kept = await exportOnce(false);
  expect(kept.id).not.toBe(flattened.id);
  expect(kept.options.method ?? 'auto').toBe('auto');
  expect(kept.summary?.burn).toMatchObject({ vector_pages: 1, raster_pages: 0 });
});
