import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, initDataDir, startServer, type ServerProcess } from '../helpers/process.js';
import { onPostgres } from '../helpers/test-database.js';

// Two `obscura serve` processes on one PostgreSQL database share each rate-limit window: a key allowed 12 requests a
// minute gets 12 in all, however its requests are spread over the servers, and not 12 from each.

describe.skipIf(!onPostgres())('rate limits shared by two servers (PostgreSQL; SQLite counts per process)', () => {
  let root: string;
  let key: string;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    assertBuilt();
    root = tempDir('obscura-shared-limits-');
    const dataDir = path.join(root, 'data');
    key = (await initDataDir(dataDir)).api_key;
    const rateLimits = { perRawKey: { limit: 20, windowSeconds: 60 }, perApiKey: { limit: 12, windowSeconds: 60 }, perOrganization: { limit: 1000, windowSeconds: 60 } };
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rateLimits }));
    [a, b] = await Promise.all([startServer(dataDir, [], 30_000), startServer(dataDir, [], 30_000)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a key gets its allowance once across both servers, under concurrent requests', async () => {
    const statuses = await Promise.all(Array.from({ length: 24 }, (_, index) => apiFetch(index % 2 === 0 ? a.url : b.url, key, 'GET', '/me').then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12);
    // Spent on both: either server refuses the next request.
    expect((await apiFetch(a.url, key, 'GET', '/me')).status).toBe(429);
    expect((await apiFetch(b.url, key, 'GET', '/me')).status).toBe(429);
  });

  it('guessed keys are counted across both servers before authentication', async () => {
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, index) => apiFetch(index % 2 === 0 ? a.url : b.url, 'guessed-key', 'GET', '/me').then((response) => response.status)));
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });
});
