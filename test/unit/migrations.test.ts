import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, openDatabase, openSqlite } from '../../main/db/connection.js';
import { migrations } from '../../main/db/migrations/index.js';
import { DatabaseTooNewError, currentSchemaVersion, latestSchemaVersion, migrateToLatest } from '../../main/db/migrator.js';
import { tempDir } from '../helpers/instance.js';
import { runCli } from '../helpers/process.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = tempDir('obscura-migrations-');
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface SchemaEntry {
  type: string;
  name: string;
  sql: string | null;
}

function tables(sqlite: ReturnType<typeof openSqlite>): SchemaEntry[] {
  const all = sqlite.prepare("SELECT type, name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as SchemaEntry[];
  // Full-text indexes are virtual tables; SQLite creates them and their shadow tables (`<name>_data`, …) itself.
  const virtual = all.filter((table) => /^CREATE VIRTUAL TABLE/i.test(table.sql ?? '')).map((table) => table.name);
  return all.filter((table) => !virtual.some((name) => table.name === name || table.name.startsWith(`${name}_`)));
}

function fileHash(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

describe('migrations', () => {
  // Versions are assigned to engineers working in parallel, so a number may be missing for a while.
  it('are numbered in ascending order from 1, and the latest is the last', () => {
    const versions = migrations.map((migration) => migration.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(latestSchemaVersion()).toBe(versions.at(-1));
  });

  for (const [index, migration] of migrations.entries()) {
    const previous = index === 0 ? 0 : (migrations[index - 1]?.version ?? 0);
    it(`${String(migration.version).padStart(3, '0')}-${migration.name} applies on an empty file, with STRICT tables`, () => {
      const sqlite = openSqlite(path.join(freshDir(), 'empty.db'));
      try {
        expect(currentSchemaVersion(sqlite)).toBe(0);
        expect(migrateToLatest(sqlite, migration.version)).toBe(migration.version);
        expect(sqlite.pragma('user_version', { simple: true })).toBe(migration.version);
        const created = tables(sqlite);
        expect(created.length).toBeGreaterThan(0);
        for (const table of created) {
          const sqlText = table.sql ?? '';
          // Table options follow the closing parenthesis: `) STRICT` or `) WITHOUT ROWID, STRICT`.
          expect(sqlText.slice(sqlText.lastIndexOf(')')), `table ${table.name}`).toMatch(/\bSTRICT\b/i);
        }
        expect(sqlite.pragma('foreign_key_check')).toEqual([]);
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        sqlite.close();
      }
    });

    it(`${String(migration.version).padStart(3, '0')}-${migration.name} applies on top of the one before it`, () => {
      const sqlite = openSqlite(path.join(freshDir(), 'stepwise.db'));
      try {
        if (previous > 0) migrateToLatest(sqlite, previous);
        expect(currentSchemaVersion(sqlite)).toBe(previous);
        expect(migrateToLatest(sqlite, migration.version)).toBe(migration.version);
      } finally {
        sqlite.close();
      }
    });
  }

  it('migrating an up-to-date database changes nothing', () => {
    const sqlite = openSqlite(path.join(freshDir(), 'twice.db'));
    try {
      migrateToLatest(sqlite);
      const before = tables(sqlite);
      expect(migrateToLatest(sqlite)).toBe(latestSchemaVersion());
      expect(tables(sqlite)).toEqual(before);
    } finally {
      sqlite.close();
    }
  });

  it('opens the database with WAL, foreign keys on and synchronous FULL', async () => {
    const opened = await openDatabase(path.join(freshDir(), DATABASE_FILE_NAME));
    try {
      expect(opened.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(opened.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(opened.sqlite.pragma('synchronous', { simple: true })).toBe(2);
      expect(opened.sqlite.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
      // STRICT is enforced, not just declared: text in an INTEGER column is refused.
      expect(() => opened.sqlite.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('x', 'n', 't')").run()).toThrow(/datatype mismatch/i);
      // Foreign keys are enforced on this connection.
      expect(() =>
        opened.sqlite
          .prepare("INSERT INTO cases (organization_id, name, status, priority, created_at, updated_at) VALUES (999, 'n', 'open', 'normal', 't', 't')")
          .run(),
      ).toThrow(/FOREIGN KEY/i);
    } finally {
      await opened.close();
    }
  });
});

describe('a database newer than the code', () => {
  /** A WAL database, as Obscura writes them, claiming a schema version this build does not know. */
  function writeTooNewDatabase(dir: string): string {
    const file = path.join(dir, DATABASE_FILE_NAME);
    const sqlite = openSqlite(file);
    sqlite.exec('CREATE TABLE from_the_future (id INTEGER PRIMARY KEY) STRICT');
    sqlite.pragma(`user_version = ${latestSchemaVersion() + 1}`);
    sqlite.close();
    return file;
  }

  it('is refused with DatabaseTooNewError and left unchanged', async () => {
    const file = writeTooNewDatabase(freshDir());
    const hashBefore = fileHash(file);
    const error = await openDatabase(file).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as DatabaseTooNewError).databaseVersion).toBe(latestSchemaVersion() + 1);
    expect((error as DatabaseTooNewError).supportedVersion).toBe(latestSchemaVersion());
    expect((error as Error).message).toMatch(/newer/);
    expect(fileHash(file)).toBe(hashBefore);
    const sqlite = openSqlite(file);
    try {
      expect(currentSchemaVersion(sqlite)).toBe(latestSchemaVersion() + 1);
      expect(tables(sqlite).map((table) => table.name)).toEqual(['from_the_future']);
    } finally {
      sqlite.close();
    }
  });

  it('makes `obscura serve` exit non-zero with a clear message', async () => {
    const dir = freshDir();
    const file = writeTooNewDatabase(dir);
    const hashBefore = fileHash(file);
    const result = await runCli(['serve', '--data-dir', dir, '--port', '0']);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stdout).not.toMatch(/listening on/);
    expect(result.stderr).toMatch(new RegExp(`schema version ${latestSchemaVersion() + 1}`));
    expect(result.stderr).toMatch(/newer Obscura/);
    expect(fileHash(file)).toBe(hashBefore);
  });
});
