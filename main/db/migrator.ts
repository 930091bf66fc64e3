import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { migrations } from './migrations/index.js';
import { postgresMigrations } from './migrations-postgres/index.js';

export class DatabaseTooNewError extends Error {
  constructor(
    readonly databaseVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `This database has schema version ${databaseVersion}, but this build of Obscura only knows versions up to ${supportedVersion}. ` +
        'It was written by a newer Obscura; install that version or newer to open it.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

export function latestSchemaVersion(): number {
  return migrations.at(-1)?.version ?? 0;
}

export function currentSchemaVersion(sqlite: SQLite.Database): number {
  return sqlite.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies pending migrations, each in its own transaction together with the
 * user_version bump, so a crash leaves the schema at a whole version.
 */
export function migrateToLatest(sqlite: SQLite.Database, target = latestSchemaVersion()): number {
  const current = currentSchemaVersion(sqlite);
  const supported = latestSchemaVersion();
  if (current > supported) throw new DatabaseTooNewError(current, supported);
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue;
    const apply = sqlite.transaction(() => {
      // Read again under the write lock: another process starting at the same time may have applied it.
      if (currentSchemaVersion(sqlite) >= migration.version) return;
      sqlite.exec(migration.up);
      sqlite.pragma(`user_version = ${migration.version}`);
    });
    apply.immediate();
  }
  return currentSchemaVersion(sqlite);
}

// PostgreSQL: the applied versions are rows of schema_migrations, and the whole run holds a session advisory
// lock, so servers and workers started together against one database migrate it once, one after the other.
const MIGRATION_LOCK = 0x0b5c_0001;

export async function currentPostgresSchemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return 0;
  const result = await client.query<{ version: number | null }>('SELECT max(version)::integer AS version FROM schema_migrations');
  return result.rows[0]?.version ?? 0;
}

export function latestPostgresSchemaVersion(): number {
  return postgresMigrations.at(-1)?.version ?? 0;
}

export async function migratePostgresToLatest(pool: pg.Pool, target = latestPostgresSchemaVersion()): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const current = await currentPostgresSchemaVersion(client);
      const supported = latestPostgresSchemaVersion();
      if (current > supported) throw new DatabaseTooNewError(current, supported);
      for (const migration of postgresMigrations) {
        if (migration.version <= current || migration.version > target) continue;
        await client.query('BEGIN');
        try {
          await client.query(
            'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
          );
          await client.query(migration.up);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            migration.version,
            migration.name,
            new Date().toISOString(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          if (error instanceof Error) error.message = `PostgreSQL migration ${migration.version}-${migration.name} failed: ${error.message}`;
          throw error;
        }
      }
      return await currentPostgresSchemaVersion(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
