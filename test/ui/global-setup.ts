// Starts one Obscura for the UI tests: `obscura init --json` into a fresh temporary directory, then
// `obscura serve --port 0` from dist/. Tests read the URL and credentials from the environment (Playwright
// passes the setup's process.env to its workers). The returned function stops the server.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, assertBuilt, initDataDir, startServer } from '../helpers/process.js';
import { UI_ENV } from './support/env.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  assertBuilt();
  if (!fs.existsSync(path.join(PROJECT_ROOT, 'dist', 'renderer', 'index.html'))) {
    throw new Error('dist/renderer is missing: run `npm run build` before the UI tests');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-ui-'));
  const credentials = await initDataDir(dataDir);
  const server = await startServer(dataDir, [], 30_000);
  process.env[UI_ENV.url] = server.url;
  process.env[UI_ENV.username] = credentials.admin_username;
  process.env[UI_ENV.password] = credentials.admin_password;
  process.env[UI_ENV.apiKey] = credentials.api_key;
  process.env[UI_ENV.dataDir] = dataDir;
  // The specs click Scan, OCR and Detect themselves and count the jobs and suggestions they made; automatic
  // processing (the product's default, tested through HTTP in auto-processing.test.ts) would run them first.
  const off = await fetch(`${server.url}/api/v1/processing-settings`, {
    method: 'PATCH',
    headers: { 'x-api-key': credentials.api_key, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ auto_process: false }),
  });
  if (off.status !== 200) throw new Error(`turning automatic processing off failed: ${off.status} ${await off.text()}`);
  return async () => {
    const exit = await server.stop('SIGTERM');
    if (exit.code !== 0) console.error(`obscura serve exited with ${exit.code ?? exit.signal}\n${server.output().stderr}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
