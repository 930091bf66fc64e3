import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { apiFetch, assertBuilt, databaseUrlFor, runCli, startServer } from '../helpers/process.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/test-database.js';

// `--database-url` chooses the database over OBSCURA_DATABASE_URL (which the test harness sets for every data
// directory on a PostgreSQL run), for `init` and `serve`; a password in the URL is never printed.

async function organizations(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query<{ present: boolean }>("SELECT to_regclass('organizations') IS NOT NULL AS present");
    if (!exists.rows[0]?.present) return 0;
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM organizations')).rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

describe.skipIf(!onPostgres())('--database-url (PostgreSQL run)', () => {
  let dir: string;
  let chosen: TestDatabase;

  beforeAll(async () => {
    assertBuilt();
    dir = tempDir('obscura-database-url-');
    chosen = await createTestDatabase({ empty: true });
  });

  afterAll(async () => {
    await chosen.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('init and serve use the database the flag names, not the environment one', async () => {
    const init = await runCli(['init', '--data-dir', dir, '--database-url', chosen.url, '--json']);
    expect(init.code, init.stderr).toBe(0);
    const credentials = JSON.parse(init.stdout) as { api_key: string };
    expect(await organizations(chosen.url)).toBe(1);
    // The database OBSCURA_DATABASE_URL named for this directory was never touched.
    expect(await organizations((await databaseUrlFor(dir)) ?? '')).toBe(0);
    expect(fs.existsSync(`${dir}/obscura.db`)).toBe(false);

    const server = await startServer(dir, ['--database-url', chosen.url]);
    try {
      const created = await apiFetch(server.url, credentials.api_key, 'POST', '/cases', { name: 'On PostgreSQL' });
      expect(created.status).toBe(201);
      const listed = await apiFetch(server.url, credentials.api_key, 'GET', '/cases');
      expect((listed.json as { data: { name: string }[] }).data.map((entry) => entry.name)).toEqual(['On PostgreSQL']);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('a URL that cannot be opened fails with a message naming it', async () => {
    const url = new URL(chosen.url);
    url.pathname = '/no_such_database';
    const result = await runCli(['serve', '--data-dir', tempDir('obscura-database-url-bad-'), '--port', '0', '--database-url', url.toString()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no_such_database/);
  });

  it('a password in the flag (public in ps) is refused before anything opens, and not shown (issue 26)', async () => {
    const url = new URL(chosen.url);
    url.password = 'sekrit-pass-123';
    const result = await runCli(['serve', '--data-dir', tempDir('obscura-database-url-bad-'), '--port', '0', '--database-url', url.toString()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/must not hold a password/);
    expect(result.stdout + result.stderr).not.toContain('sekrit-pass-123');
  });

  it('a URL that is not postgres:// is refused before anything opens', async () => {
    const result = await runCli(['init', '--data-dir', tempDir('obscura-database-url-bad-'), '--database-url', 'mysql://root@localhost/x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/databaseUrl/);
  });
});
