import type SQLite from 'better-sqlite3';
import { migrations } from './migrations/index.js';

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
      sqlite.exec(migration.up);
      sqlite.pragma(`user_version = ${migration.version}`);
    });
    apply.immediate();
  }
  return currentSchemaVersion(sqlite);
}
