import { openDatabase } from '../../main/db/connection.js';
import { startCluster } from './postgres-cluster.js';
import { POSTGRES_ADMIN_URL_ENV, POSTGRES_TEMPLATE, onPostgres } from './test-database.js';

/**
 * With OBSCURA_TEST_DATABASE=postgres: one throwaway cluster for the whole run, and a template database migrated
 * once, from which every test instance gets its own database in milliseconds. Null on SQLite.
 */
export async function startPostgres(): Promise<{ adminUrl: string; stop: () => void } | null> {
  if (!onPostgres()) return null;
  const started = Date.now();
  const cluster = await startCluster();
  const template = await openDatabase(await cluster.createDatabase(POSTGRES_TEMPLATE), { poolSize: 1 });
  await template.close();
  process.env[POSTGRES_ADMIN_URL_ENV] = cluster.url('postgres');
  console.log(`PostgreSQL test cluster on 127.0.0.1:${cluster.port} (${cluster.dir}), ready in ${Date.now() - started} ms`);
  return { adminUrl: cluster.url('postgres'), stop: () => cluster.stop() };
}
