// The clerk's day through the window only (issue 27): sign in, a new case with its statutory clock, drop PDFs,
// an e-mail and a Word file, automatic processing, the viewer's box and Words tools, search-and-redact,
// keyboard review, a page withheld in full and its preview, submit, a second person approves with a note, an
// edit after approval and re-approval by the reviewer with a note, a release with stamps overridden by the administrator
// with a reason, and the downloaded zip read with pdftotext. Every screen is checked at 1440×900 and 1280×720
// (support/screens.ts): no clipped labelled control, no serious or critical axe finding, a screenshot.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { dragBox, dropFiles } from './support/dom.js';
import type { Page } from '@playwright/test';
import { expect, signInThroughForm, test } from './support/fixtures.js';
import { minimalDocx } from './support/office.js';
import { textPdf, wordBox, type Line } from './support/pdfs.js';
import { checkScreen } from './support/screens.js';

const PASSWORD = 'a long enough passphrase';
const MEMO: Line[] = [
  { text: 'Permit complaint memorandum', x: 72, y: 720, size: 14 },
  { text: 'Complainant Dana Whitfield called twice', x: 72, y: 690, size: 12 },
  { text: 'Inspector badge K7731 visited the site', x: 72, y: 670, size: 12 },
  { text: 'Callback number 555-867-5309 on file', x: 72, y: 650, size: 12 },
];
const MEDICAL: Line[] = [{ text: 'Clinic notes ZZMEDICAL for the complainant', x: 72, y: 700, size: 12 }];

function email(): Promise<Buffer> {
  const composer = new MailComposer({
    from: 'Dana Whitfield <dana.whitfield@example.org>',
    to: 'records@city.example.gov',
    subject: 'Permit complaint follow-up',
    text: 'Please add this to my complaint about the permit at 14 Alder Lane.',
  });
  return new Promise((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
}

/**
 * The viewer toolbar is one row at 1280×720 and 1440×900: every control in it (the back link, the page field,
 * zoom, the tools, Remove, Undo, Save, the view toggles up to "Preview as released") is centred on the same line
 * and inside the toolbar. The window is left at 1440×900.
 */
async function expectToolbarOneRow(page: Page): Promise<void> {
  const toolbar = page.getByRole('toolbar', { name: 'Viewer' });
  for (const size of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(size);
    await expect(toolbar.getByRole('button', { name: 'Preview as released' })).toBeVisible();
    const layout = await toolbar.evaluate((bar) => {
      const edge = bar.getBoundingClientRect();
      const controls = [...bar.querySelectorAll<HTMLElement>('a, button, input, [data-testid="save-state"]')].filter((element) => element.offsetParent !== null);
      return controls.map((element) => {
        const box = element.getBoundingClientRect();
        return { name: element.getAttribute('aria-label') ?? (element.textContent ?? '').trim(), middle: box.top + box.height / 2, inside: box.left >= edge.left - 1 && box.right <= edge.right + 1 };
      });
    });
    expect(layout.map((control) => control.name)).toEqual(expect.arrayContaining(['Select', 'Remove', 'Undo', 'Save', 'Continuous', 'Preview as released']));
    const middles = layout.map((control) => control.middle);
    expect(Math.max(...middles) - Math.min(...middles), `the toolbar wraps at ${size.width}×${size.height}: ${JSON.stringify(layout)}`).toBeLessThan(4);
    expect(layout.filter((control) => !control.inside).map((control) => control.name), `outside the toolbar at ${size.width}`).toEqual([]);
  }
}

test('the clerk’s day, every step in the window', async ({ admin, server, page, browser }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await admin.expect(200, 'PATCH', '/api/v1/processing-settings', { auto_process: true });
  const safeguards = { pending_suggestions: true, unprocessed_documents: false, case_approved: true, separation_of_duties: true, changed_after_approval: true };
  await admin.expect(200, 'PATCH', '/api/v1/release-settings', { safeguards, letterhead: 'City of Springfield\nOffice of Public Records', appeal_rights: 'You may appeal this response within 90 days to the Records Appeals Officer.' });
  // The second person: a reviewer with a password, signing in through the form in a window of their own.
  const reviewerName = `reviewer${Date.now().toString(36)}`;
  const reviewer = await admin.expect<{ data: { id: string } }>(201, 'POST', '/api/v1/users', { username: reviewerName, display_name: 'Rita Reviewer', password: PASSWORD });
  const roles = await admin.expect<{ data: { id: string; name: string }[] }>(200, 'GET', '/api/v1/roles?limit=100');
  await admin.expect(200, 'PUT', `/api/v1/users/${reviewer.data.id}/roles/${roles.data.find((role) => role.name === 'reviewer')?.id ?? ''}`);

  // Sign in, the queue.
  await signInThroughForm(page, server.username, server.password);
  await checkScreen(page, 'queue');

  // A new case: received today, so its clock runs; the requester's contact is internal.
  const name = `Permit complaint ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'New case' }).click();
  const dialog = page.getByRole('dialog', { name: 'New case' });
  await dialog.getByLabel('Case name').fill(name);
  await dialog.getByLabel('Name', { exact: true }).fill('Dana Whitfield');
  await dialog.getByLabel('E-mail').fill('dana.whitfield@example.org');
  await checkScreen(page, 'new-case');
  await dialog.getByRole('button', { name: 'Create case' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  const caseId = /#\/cases\/(\d+)/.exec(page.url())?.[1] ?? '';
  const clock = page.getByTestId('clock-status');
  await expect(clock).toContainText(/\d+ days left/);
  await checkScreen(page, 'case-new');

  // Drop two PDFs, an e-mail and a Word file: the window takes them all, and nothing on the page jumps.
  const before = { drop: await page.locator('.dropzone').boundingBox(), side: await page.locator('.case-side').boundingBox() };
  await dropFiles(page, page.locator('.dropzone'), [
    { name: 'complaint-memo.pdf', type: 'application/pdf', bytes: await textPdf([MEMO, MEDICAL]) },
    { name: 'site-visit.pdf', type: 'application/pdf', bytes: await textPdf([[{ text: 'Site visit by Dana Whitfield on Alder Lane', x: 72, y: 700, size: 12 }]]) },
    { name: 'permit-complaint.eml', type: 'message/rfc822', bytes: await email() },
    { name: 'inspection-notes.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: await minimalDocx(['Inspection notes', 'Owner Dana Whitfield was present']) },
  ]);
  const table = page.getByRole('table', { name: 'Documents' });
  for (const file of ['complaint-memo.pdf', 'site-visit.pdf', 'permit-complaint.eml', 'inspection-notes.docx']) await expect(table.getByText(file).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'Not added' })).toHaveCount(0);
  const after = { drop: await page.locator('.dropzone').boundingBox(), side: await page.locator('.case-side').boundingBox() };
  expect(after.drop?.y).toBe(before.drop?.y);
  expect(after.side?.y).toBe(before.side?.y);

  // Automatic processing finds the name; the suggestions queue fills.
  const queue = page.getByRole('region', { name: /Suggestions to review/ });
  await expect(queue.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first()).toBeVisible({ timeout: 120_000 });
  // The queue filling below the fold keeps its selected row in view inside the list, never by scrolling the page.
  expect((await page.locator('.dropzone').boundingBox())?.y).toBe(before.drop?.y);
  // Once intake has converted the e-mail and the Word file, "Process all" counts them with the PDFs.
  await expect(page.getByText('for every document (4), in one go')).toBeVisible({ timeout: 30_000 });
  await checkScreen(page, 'case-processed');

  // The internal export's dialog lists every document by its whole name (wrapped where it must be, never cut).
  await page.getByRole('button', { name: 'Export (internal)…' }).click();
  const exportDialog = page.getByRole('dialog', { name: /^Export/ });
  for (const file of ['complaint-memo.pdf', 'site-visit.pdf', 'permit-complaint.eml', 'inspection-notes.docx']) {
    const shown = exportDialog.locator('.check-list .file-name', { hasText: file }).first();
    await expect(shown).toHaveText(file);
    expect(await shown.evaluate((element) => element.scrollWidth <= element.clientWidth), `${file} is cut`).toBe(true);
  }
  await checkScreen(page, 'export');
  await exportDialog.getByRole('button', { name: 'Close' }).first().click();

  // Search-and-redact the badge number across the case.
  const search = page.getByRole('region', { name: 'Search this case' });
  await search.getByLabel('Search for').fill('K7731');
  await search.getByRole('button', { name: 'Search' }).click();
  await search.getByRole('button', { name: /Redact 1 hit/ }).click();
  await expect(search.getByRole('status')).toContainText('added for 1 hit');

  // Keyboard review: accept the first suggestion; the rest stay for later (they block the release below).
  const list = queue.getByRole('listbox', { name: 'Suggestions' });
  await list.focus();
  await page.keyboard.press('a');
  await expect(queue.getByRole('status')).toContainText('Accepted');

  // The viewer: a box with the Rectangle tool, a drag with the Words tool, saved.
  await table.getByRole('link', { name: 'complaint-memo.pdf' }).click();
  const overlay = page.getByTestId('redaction-overlay');
  await expect(overlay).toBeVisible();
  await checkScreen(page, 'viewer');
  // The toolbar is one row at both sizes, with nothing saved yet and with unsaved changes (a longer state).
  await expectToolbarOneRow(page);
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  const phone = wordBox(MEMO[3]!, '555-867-5309');
  await dragBox(page, overlay, { x: phone.x1 + 2, y: phone.y2 + 1 }, { x: phone.x2 - 2, y: phone.y1 - 1 });
  await page.getByRole('radio', { name: 'Words' }).click();
  const who = wordBox(MEMO[1]!, 'Whitfield');
  await dragBox(page, overlay, { x: who.x1 + 2, y: (who.y1 + who.y2) / 2 }, { x: who.x2 - 2, y: (who.y1 + who.y2) / 2 });
  await expect(page.getByTestId('save-state')).toHaveText(/unsaved change/);
  await expectToolbarOneRow(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');

  // Withhold page 2 in full (release screen), then preview it: the placeholder, marked in the thumbnails.
  await page.goto(`/#/cases/${caseId}/release`);
  const withhold = page.getByRole('form', { name: 'Withhold in full' });
  await withhold.getByRole('combobox', { name: 'Document' }).selectOption({ label: 'complaint-memo.pdf' });
  await withhold.getByLabel('From page').fill('2');
  await withhold.getByLabel('To page').fill('2');
  await withhold.getByLabel('Exemption').fill('(b)(6)');
  await withhold.getByRole('button', { name: 'Withhold in full' }).click();
  await expect(page.locator('.withholdings')).toContainText('complaint-memo.pdf, page 2');
  await page.goBack();
  await page.goto(`/#/cases/${caseId}`);
  await table.getByRole('link', { name: 'complaint-memo.pdf' }).click();
  await expect(page.getByRole('button', { name: 'Page 2, withheld in full under (b)(6)' })).toBeVisible();
  await page.getByRole('button', { name: 'Page 2, withheld in full under (b)(6)' }).click();
  await page.getByRole('button', { name: 'Preview as released' }).click();
  await expect(page.getByTestId('release-preview')).toContainText('Page 2 is withheld in full under (b)(6): the requester gets this placeholder page instead.');
  await expect(page.getByTestId('release-preview').locator('canvas')).toBeVisible({ timeout: 30_000 });
  await checkScreen(page, 'preview-withheld');

  // Submit; the clerk who redacted is not offered approval.
  await page.goto(`/#/cases/${caseId}`);
  const actions = page.getByRole('group', { name: 'Workflow actions' });
  await actions.getByRole('button', { name: 'Start work' }).click();
  await actions.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.locator('.case-title-row .badge').first()).toHaveText('In review');
  await expect(actions.getByRole('button', { name: 'Approve…' })).toHaveCount(0);

  // The reviewer approves with a note.
  const reviewerWindow = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const second = await reviewerWindow.newPage();
  await signInThroughForm(second, reviewerName, PASSWORD);
  await expect(second.getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await second.goto(`/#/cases/${caseId}`);
  await second.getByRole('group', { name: 'Workflow actions' }).getByRole('button', { name: 'Approve…' }).click();
  const approve = second.getByRole('dialog', { name: 'Approve this case?' });
  await approve.getByLabel('Note for the case history (optional)').fill('Checked every page against the request.');
  await checkScreen(second, 'approve');
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(second.locator('.case-title-row .badge').first()).toHaveText('Approved');
  await expect(second.locator('.case-header .facts')).toContainText('Checked every page against the request.');

  // The clerk edits after approval: warned first; the approval reopens.
  await page.goto(`/#/cases/${caseId}`);
  await table.getByRole('link', { name: 'site-visit.pdf' }).click();
  await expect(overlay).toBeVisible();
  await page.getByRole('radio', { name: 'Rectangle' }).click();
  await dragBox(page, overlay, { x: 300, y: 706 }, { x: 340, y: 696 });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog', { name: 'Change an approved case?' }).getByRole('button', { name: 'Save and reopen review' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('All changes saved');

  // The reviewer sees what changed, by name, and re-approves with a note, in the approval's dialog.
  await second.reload();
  await expect(second.getByTestId('approval-reopened')).toContainText('redactions changed in site-visit.pdf');
  await second.getByRole('button', { name: 'Re-approve…' }).click();
  const reapprove = second.getByRole('dialog', { name: 'Re-approve this case?' });
  await expect(reapprove).toContainText('redactions changed in site-visit.pdf');
  await reapprove.getByLabel('Note for the case history (optional)').fill('Checked the new box on the site visit.');
  await checkScreen(second, 'reapprove');
  await reapprove.getByRole('button', { name: 'Re-approve', exact: true }).click();
  await expect(second.getByTestId('approval-reopened')).toHaveCount(0);
  await expect(second.locator('.case-header .facts')).toContainText('Checked the new box on the site visit.');
  await second.reload();
  await expect(second.getByRole('table', { name: 'History' })).toContainText('Re-approved after changes — “Checked the new box on the site visit.”');
  await reviewerWindow.close();

  // The release with stamps: blocked by the suggestions left waiting; the administrator releases anyway, with a reason.
  await page.goto(`/#/cases/${caseId}`);
  await page.getByRole('link', { name: 'Release to requester…' }).click();
  await page.getByLabel('Request number').fill('PRR-2026-0117');
  await page.getByLabel('Title the requester sees').fill('Permit complaint records');
  await page.getByRole('button', { name: 'Save details' }).click();
  await page.getByLabel('Stamp prefix').fill('PRR-');
  await page.getByRole('button', { name: 'Build the release' }).click();
  await expect(page.getByTestId('release-refused')).toContainText('suggestion');
  await checkScreen(page, 'release-blocked', page.getByTestId('release-refused'));
  await page.getByLabel(/Reason to release anyway/).fill('Remaining suggestions are city staff names, public by policy.');
  await page.getByRole('button', { name: 'Release anyway' }).click();
  const status = page.getByTestId('release-status');
  await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await checkScreen(page, 'release-built', status);

  // The zip, read back.
  const [download] = await Promise.all([page.waitForEvent('download'), status.getByRole('button', { name: /Download/ }).click()]);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-day-'));
  try {
    const zip = path.join(folder, 'release.zip');
    await download.saveAs(zip);
    execFileSync('unzip', ['-q', zip, '-d', path.join(folder, 'out')]);
    const text = (name: string) => execFileSync('pdftotext', ['-q', path.join(folder, 'out', name), '-'], { encoding: 'utf8' });
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const memo = names.find((entry) => entry.includes('complaint-memo'));
    expect(memo).toBeTruthy();
    const released = text(memo ?? '');
    expect(released).toContain('Permit complaint memorandum');
    expect(released).toMatch(/PRR-\d+/);
    expect(released).toContain('Withheld in full under (b)(6)');
    for (const secret of ['K7731', '555-867-5309', 'ZZMEDICAL']) expect(released, secret).not.toContain(secret);
    const letter = text('cover-letter.pdf');
    expect(letter).toContain('PRR-2026-0117');
    expect(letter).toContain('Permit complaint records');
    // The office's letterhead and appeal paragraph head and close it; the requester's contact is internal: never in the package.
    expect(letter).toContain('Office of Public Records');
    expect(letter).toContain('You may appeal this response within 90 days');
    expect(letter).not.toContain('dana.whitfield@example.org');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  // The queue shows the case released.
  await page.goto('/#/cases');
  await page.getByLabel('Status').selectOption('released');
  await expect(page.locator(`tr[data-case-id="${caseId}"]`)).toContainText('Released #1');
  await checkScreen(page, 'queue-released');
});
