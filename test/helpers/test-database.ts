import pg from 'pg';
import { inject } from 'vitest';

// Which database the suite runs on, and a fresh PostgreSQL database per test instance when it is PostgreSQL.

// Declared here, beside inject(), so every project that compiles this file (test/ui imports it too) knows the key.
declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export const POSTGRES_TEMPLATE = 'obscura_template';
export const POSTGRES_ADMIN_URL_ENV = 'OBSCURA_TEST_POSTGRES_ADMIN_URL';

/** OBSCURA_TEST_DATABASE=postgres runs the suite against the throwaway cluster of postgres-setup.ts (started by global-setup.ts). */
export function onPostgres(): boolean {
  return process.env.OBSCURA_TEST_DATABASE === 'postgres';
}

/** Reason for `it.skipIf(onPostgres())` on the few tests about the SQLite file itself. */
export const SQLITE_ONLY = 'inspects the SQLite file, which a PostgreSQL run does not have';

function adminUrl(): string {
  const url = process.env[POSTGRES_ADMIN_URL_ENV] ?? inject('postgresAdminUrl');
  if (!url) throw new Error('OBSCURA_TEST_DATABASE=postgres but no test cluster: run through vitest (its global setup starts one)');
  return url;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/** A new database copied from the migrated template (already at the latest schema version), or an empty one. */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `t_${process.pid}_${counter++}_${Math.random().toString(36).slice(2, 8)}`;
  // Two copies of one template at the same moment fail ("being accessed by other users"): one at a time.
  await admin(async (client) => {
    await client.query('SELECT pg_advisory_lock(2127)');
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${options.empty ? 'template0' : POSTGRES_TEMPLATE}`);
  });
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a server the test killed may leave connections behind for a moment.
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
