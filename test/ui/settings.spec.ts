import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures.js';

test('users: add a person, give a role, invite, deactivate', async ({ admin, signedIn: page }) => {
  const username = `clerk-${Date.now().toString(36)}`;
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('button', { name: 'Add user' }).click();
  const form = page.getByRole('form', { name: 'New user' });
  await form.getByLabel('User name').fill(username);
  await form.getByLabel('Full name').fill('Casey Morgan');
  await form.getByRole('button', { name: 'Add user' }).click();
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username });
  await expect(row).toContainText('Invited');

  await row.getByRole('checkbox', { name: 'reviewer' }).check();
  await expect(row.getByRole('checkbox', { name: 'reviewer' })).toBeChecked();
  await row.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByTestId('secret')).toHaveText(/^inv_/);
  const token = (await page.getByTestId('secret').textContent())!;
  await page.getByRole('button', { name: 'Done' }).click();

  // The invitation works: the person sets a password and signs in.
  const accept = await fetch(`${admin.baseUrl}/api/auth/accept-invitation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: 'a long enough password' }),
  });
  expect(accept.status).toBe(200);

  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Deactivated');
  const users = await admin.expect<{ data: { username: string; active: boolean; roles: { name: string }[] }[] }>(200, 'GET', '/api/v1/users?limit=100');
  expect(users.data.find((user) => user.username === username)).toMatchObject({ active: false, roles: [{ name: 'reviewer' }] });
});

test('API keys: issue one (secret shown once, it works), then revoke it', async ({ admin, signedIn: page }) => {
  await page.goto('/#/settings/keys');
  await page.getByRole('button', { name: 'Issue key' }).click();
  const form = page.getByRole('form', { name: 'Issue API key' });
  await form.getByLabel('Key name').fill('Records sync');
  await form.getByRole('checkbox', { name: 'cases:read' }).check();
  await form.getByRole('button', { name: 'Issue key' }).click();
  const secret = (await page.getByTestId('secret').textContent())!;
  expect(secret).toMatch(/^obs_/);
  const use = () => fetch(`${admin.baseUrl}/api/v1/cases`, { headers: { 'x-api-key': secret } }).then((response) => response.status);
  expect(await use()).toBe(200);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('secret')).toHaveCount(0);

  const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Records sync' });
  await expect(row).toContainText('cases:read');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');
  expect(await use()).toBe(401);
});

test('webhooks: an endpoint receives events, its deliveries are listed and can be replayed', async ({ admin, signedIn: page }) => {
  const received: { type: string; id: string }[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ type: (JSON.parse(body) as { type: string }).type, id: String(request.headers['webhook-id']) });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    await page.goto('/#/settings/webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('form', { name: 'New webhook endpoint' });
    await form.getByLabel('URL').fill(url);
    await form.getByLabel('Description').fill('Records system');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByTestId('secret')).toHaveText(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();

    await admin.createCase(`Webhook case ${Date.now()}`);
    await expect.poll(() => received.filter((event) => event.type === 'case.created').length, { timeout: 20_000 }).toBe(1);

    const row = page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row').filter({ hasText: url });
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect(deliveries.getByRole('row').filter({ hasText: 'case.created' })).toContainText('succeeded');
    await deliveries.getByRole('row').filter({ hasText: 'case.created' }).getByRole('button', { name: 'Details' }).click();
    await expect(page.locator('.delivery-detail')).toContainText('HTTP 200');
    await deliveries.getByRole('row').filter({ hasText: 'case.created' }).getByRole('button', { name: 'Replay' }).click();
    await expect.poll(() => received.filter((event) => event.type === 'case.created').length, { timeout: 20_000 }).toBe(2);
    // A replay is the same event: the receiver can recognise it by its webhook-id.
    const ids = received.filter((event) => event.type === 'case.created').map((event) => event.id);
    expect(ids[0]).toBe(ids[1]);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('watched folders are listed', async ({ signedIn: page }) => {
  await page.goto('/#/settings/folders');
  await expect(page.getByRole('heading', { name: 'Watched folders' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Watched folders' })).toContainText('No watched folders.');
});
