// Playwright fixtures: the server from the global setup as baseURL, an API client signed in as the
// administrator for setting up state, and a browser page already signed in.
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { PROJECT_ROOT } from '../../helpers/process.js';
import { ApiClient } from './api.js';
import { uiServer, type UiServer } from './env.js';

export { expect };

/** Screenshots linked from the README: kept at a fixed path, overwritten by each run. */
export const SCREENSHOT_DIR = path.join(PROJECT_ROOT, 'docs', 'screenshots');

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** Signs in through the form, as a person would. */
export async function signInThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Case queue' })).toBeVisible();
}

interface Fixtures {
  server: UiServer;
  admin: ApiClient;
  signedIn: Page;
}

export const test = base.extend<Fixtures>({
  server: async ({}, use) => use(uiServer()),
  baseURL: async ({}, use) => use(uiServer().url),
  admin: async ({ server }, use) => use(await ApiClient.signIn(server.url, server.username, server.password)),
  signedIn: async ({ page, server }, use) => {
    await signInThroughForm(page, server.username, server.password);
    await use(page);
  },
});
