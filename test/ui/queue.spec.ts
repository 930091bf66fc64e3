import { expect, saveScreenshot, signInThroughForm, test } from './support/fixtures.js';

function isoDay(offsetDays: number): string {
  const date = new Date();
  date.setDate(date.getDate() + offsetDays);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

test('sign-in refuses a wrong password in plain words, then lets the user in', async ({ page, server }) => {
  await page.goto('/');
  await page.getByLabel('User name').fill(server.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The user name or password is not right.');
  // What was typed stays; only the password is corrected.
  await expect(page.getByLabel('User name')).toHaveValue(server.username);
  await signInThroughForm(page, server.username, server.password);
  // The session survives a reload (HttpOnly cookie; nothing kept in script-readable storage).
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Case queue' })).toBeVisible();
  expect(await page.evaluate(() => document.cookie)).toBe('');
  expect(await page.evaluate(() => Object.keys(localStorage).length + Object.keys(sessionStorage).length)).toBe(0);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('the queue sorts, filters, searches and highlights overdue cases', async ({ admin, signedIn: page }) => {
  // Realistic names for the screenshot; the run's tag sits in every description so the search isolates them.
  const tag = `ref-${Date.now().toString(36)}`;
  const names = {
    late: 'FOIA-2026-0131 Police overtime records',
    soon: 'FOIA-2026-0138 Parks department budget',
    later: 'FOIA-2026-0140 Building permits 2019–2024',
    undated: 'FOIA-2026-0142 Council emails on zoning',
    finished: 'FOIA-2026-0117 Fleet maintenance logs',
  };
  const late = await admin.createCase(names.late, { priority: 'urgent', dueDate: isoDay(-3), description: `Requester ${tag}` });
  const soon = await admin.createCase(names.soon, { priority: 'high', dueDate: isoDay(2), description: `Requester ${tag}` });
  const later = await admin.createCase(names.later, { priority: 'low', dueDate: isoDay(30), description: `Requester ${tag}; insurance records` });
  const undated = await admin.createCase(names.undated, { priority: 'normal', description: `Requester ${tag}` });
  const finished = await admin.createCase(names.finished, { priority: 'normal', dueDate: isoDay(-10), description: `Requester ${tag}` });
  for (const action of ['start', 'submit', 'approve']) await admin.expect(200, 'POST', `/api/v1/cases/${finished.id}/actions`, { action });
  await admin.expect(200, 'POST', `/api/v1/cases/${soon.id}/actions`, { action: 'start' });

  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Search').fill(tag);
  const rows = page.getByRole('table', { name: 'Cases' }).locator('tbody tr');
  const shown = () => rows.locator('td:nth-child(2) a').allTextContents();

  // Default: cases not yet answered by a release, soonest due first, undated last. Approved but not yet
  // released is still owed to the requester, so it stays in the working view (and is overdue).
  await expect(rows).toHaveCount(5);
  expect(await shown()).toEqual([names.finished, names.late, names.soon, names.later, names.undated]);
  await expect(page.locator(`tr[data-case-id="${late.id}"]`)).toHaveClass(/overdue/);
  await expect(page.locator(`tr[data-case-id="${late.id}"]`)).toContainText('Overdue');
  await expect(page.locator(`tr[data-case-id="${finished.id}"]`)).toHaveClass(/overdue/);
  await expect(page.locator(`tr[data-case-id="${soon.id}"]`)).not.toHaveClass(/overdue/);

  await saveScreenshot(page, 'queue');

  // Sort by priority, descending on a second click.
  await page.getByRole('button', { name: 'Priority' }).click();
  expect(await shown()).toEqual([names.later, names.undated, names.finished, names.soon, names.late]);
  await page.getByRole('button', { name: 'Priority' }).click();
  await expect(page.getByRole('columnheader', { name: 'Priority' })).toHaveAttribute('aria-sort', 'descending');
  expect(await shown()).toEqual([names.late, names.soon, names.undated, names.finished, names.later]);

  // Filters: status, priority, due.
  await page.getByLabel('Status').selectOption('all');
  await expect(rows).toHaveCount(5);
  await page.getByLabel('Status').selectOption('approved');
  expect(await shown()).toEqual([names.finished]);
  await page.getByLabel('Status').selectOption('in_progress');
  expect(await shown()).toEqual([names.soon]);
  await page.getByLabel('Status').selectOption('working');
  await page.getByLabel('Due').selectOption('overdue');
  expect(await shown()).toEqual([names.late, names.finished]);
  await page.getByLabel('Status').selectOption('released');
  await expect(page.getByText('No case matches these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('working');
  await page.getByLabel('Due').selectOption('none');
  expect(await shown()).toEqual([names.undated]);
  await page.getByLabel('Due').selectOption('any');
  await page.getByLabel('Priority').selectOption('high');
  expect(await shown()).toEqual([names.soon]);
  await page.getByLabel('Priority').selectOption('any');

  // Search matches descriptions and numbers too.
  await page.getByLabel('Search').fill(`${tag} insurance`);
  expect(await shown()).toEqual([names.later]);
  await page.getByLabel('Search').fill(undated.id);
  await expect(page.locator(`tr[data-case-id="${undated.id}"]`)).toBeVisible();

  // Opening a case from the queue.
  await page.getByLabel('Search').fill(tag);
  await page.getByRole('link', { name: names.later }).click();
  await expect(page.getByRole('heading', { name: names.later })).toBeVisible();
  expect(page.url()).toContain(`#/cases/${later.id}`);
});

test('a case is created from the queue and opens', async ({ admin, signedIn: page }) => {
  const name = `Created in the UI ${Date.now()}`;
  await page.getByRole('button', { name: 'New case' }).click();
  const dialog = page.getByRole('dialog', { name: 'New case' });
  await expect(dialog.getByLabel('Case name')).toBeFocused();
  await dialog.getByLabel('Case name').fill(name);
  await dialog.getByLabel('Description').fill('Records of the 2025 audit');
  await dialog.getByLabel('Priority').selectOption('high');
  // Without a received date the due date is set by hand.
  await expect(dialog.getByLabel('Request received')).toHaveValue(isoDay(0));
  await dialog.getByLabel('Request received').fill('');
  await dialog.getByLabel('Due date').fill(isoDay(14));
  await dialog.getByRole('button', { name: 'Create case' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  const caseId = /#\/cases\/(\d+)/.exec(page.url())?.[1];
  expect(caseId).toBeTruthy();
  const stored = await admin.expect<{ data: { name: string; priority: string; dueDate: string; description: string; status: string; receivedDate: string | null } }>(200, 'GET', `/api/v1/cases/${caseId}`);
  expect(stored.data).toMatchObject({ name, priority: 'high', dueDate: isoDay(14), description: 'Records of the 2025 audit', status: 'open', receivedDate: null });
});
