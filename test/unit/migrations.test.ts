import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, createPostgresPool, openDatabase, openSqlite } from '../../main/db/connection.js';
import { migrations } from '../../main/db/migrations/index.js';
import { postgresMigrations } from '../../main/db/migrations-postgres/index.js';
import {
  DatabaseTooNewError,
  currentSchemaVersion,
  latestPostgresSchemaVersion,
  latestSchemaVersion,
  migratePostgresToLatest,
  migrateToLatest,
} from '../../main/db/migrator.js';
import { tempDir } from '../helpers/temp.js';
import { databaseUrlFor, runCli } from '../helpers/process.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/test-database.js';

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
      const sqlite = opened.sqlite;
      if (!sqlite) throw new Error('a file path opens SQLite');
      expect(opened.dialect).toBe('sqlite');
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
      expect(sqlite.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
      // STRICT is enforced, not just declared: text in an INTEGER column is refused.
      expect(() => sqlite.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('x', 'n', 't')").run()).toThrow(/datatype mismatch/i);
      // Foreign keys are enforced on this connection.
      expect(() =>
        sqlite
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
    // On PostgreSQL the directory's database (the one `serve` is given) records a version from the future.
    const url = await databaseUrlFor(dir);
    const pool = url === undefined ? null : createPostgresPool(url, 1);
    const file = pool ? null : writeTooNewDatabase(dir);
    const hashBefore = file ? fileHash(file) : null;
    const versions = () => pool?.query('SELECT version FROM schema_migrations ORDER BY version').then((result) => result.rows);
    try {
      await pool?.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from-the-future', 't')", [latestSchemaVersion() + 1]);
      const before = await versions();
      const result = await runCli(['serve', '--data-dir', dir, '--port', '0']);
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stdout).not.toMatch(/listening on/);
      expect(result.stderr).toMatch(new RegExp(`schema version ${latestSchemaVersion() + 1}`));
      expect(result.stderr).toMatch(/newer Obscura/);
      if (file) expect(fileHash(file)).toBe(hashBefore);
      expect(await versions()).toEqual(before);
    } finally {
      await pool?.end();
    }
  });
});

describe('the PostgreSQL history', () => {
  it('has a twin of every SQLite migration: same versions, same names, ascending', () => {
    expect(postgresMigrations.map((m) => [m.version, m.name])).toEqual(migrations.map((m) => [m.version, m.name]));
    expect(latestPostgresSchemaVersion()).toBe(latestSchemaVersion());
  });
});

/** Column name → [declared type family, NOT NULL] of every table, as SQLite and PostgreSQL describe them. */
type Columns = Record<string, Record<string, [string, boolean]>>;

function sqliteColumns(sqlite: ReturnType<typeof openSqlite>): Columns {
  const result: Columns = {};
  for (const table of tables(sqlite)) {
    const info = sqlite.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`).all(table.name) as { name: string; type: string; notnull: number; pk: number }[];
    const family = (type: string) => (type === 'INTEGER' ? 'integer' : type === 'REAL' ? 'real' : type === 'TEXT' ? 'text' : type);
    // A primary key column is NOT NULL on PostgreSQL whether declared or not (and, for INTEGER keys, on SQLite too).
    result[table.name] = Object.fromEntries(info.map((column) => [column.name, [family(column.type), column.notnull === 1 || column.pk > 0]]));
  }
  return result;
}

async function postgresColumns(pool: ReturnType<typeof createPostgresPool>): Promise<Columns> {
  const rows = await pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'",
  );
  const family = (type: string) => (type === 'bigint' ? 'integer' : type === 'double precision' ? 'real' : type);
  const result: Columns = {};
  for (const row of rows.rows) (result[row.table_name] ??= {})[row.column_name] = [family(row.data_type), row.is_nullable === 'NO'];
  return result;
}

describe.skipIf(!onPostgres())('PostgreSQL migrations (OBSCURA_TEST_DATABASE=postgres)', () => {
  const databases: TestDatabase[] = [];
  const pools: ReturnType<typeof createPostgresPool>[] = [];
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    for (const database of databases.splice(0)) await database.drop();
  });
  async function emptyDatabase() {
    const database = await createTestDatabase({ empty: true });
    databases.push(database);
    const pool = createPostgresPool(database.url, 4);
    pools.push(pool);
    return Object.assign(pool, { url: database.url });
  }

  it('apply one after another, each version recorded, and the result has the same tables and columns as SQLite', async () => {
    const pool = await emptyDatabase();
    for (const migration of postgresMigrations) {
      expect(await migratePostgresToLatest(pool, migration.version)).toBe(migration.version);
    }
    const recorded = await pool.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(recorded.rows.map((row) => [row.version, row.name])).toEqual(postgresMigrations.map((m) => [m.version, m.name]));
    const sqlite = openSqlite(path.join(freshDir(), 'compare.db'));
    try {
      migrateToLatest(sqlite);
      expect(await postgresColumns(pool)).toEqual(sqliteColumns(sqlite));
    } finally {
      sqlite.close();
    }
    // Migrating again changes nothing.
    expect(await migratePostgresToLatest(pool)).toBe(latestPostgresSchemaVersion());
    expect((await pool.query('SELECT count(*) AS n FROM schema_migrations')).rows[0]).toEqual({ n: postgresMigrations.length });
  });

  it('two processes starting at once migrate the database once (advisory lock)', async () => {
    const pool = await emptyDatabase();
    const other = createPostgresPool(pool.url, 2);
    pools.push(other);
    const versions = await Promise.all([migratePostgresToLatest(pool), migratePostgresToLatest(other)]);
    expect(versions).toEqual([latestPostgresSchemaVersion(), latestPostgresSchemaVersion()]);
    expect((await pool.query('SELECT count(*) AS n FROM schema_migrations')).rows[0]).toEqual({ n: postgresMigrations.length });
  });

  it('keeps NOCASE uniqueness (ASCII letters folded) and bytewise order', async () => {
    const pool = await emptyDatabase();
    await migratePostgresToLatest(pool);
    await pool.query("INSERT INTO organizations (name, created_at) VALUES ('o', 't')");
    const user = (name: string) =>
      pool.query("INSERT INTO users (organization_id, username, display_name, created_at, updated_at) VALUES (1, $1, 'u', 't', 't')", [name]);
    await user('Admin');
    await expect(user('aDMIN')).rejects.toMatchObject({ code: '23505' });
    // NOCASE folds ASCII only: a non-ASCII capital is another name, as on SQLite.
    await user('émile');
    await user('Émile');
    const order = await pool.query<{ username: string }>('SELECT username FROM users ORDER BY username');
    expect(order.rows.map((row) => row.username)).toEqual(['Admin', 'Émile', 'émile'].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));
  });

  it('refuses a database newer than the code and leaves it unchanged', async () => {
    const pool = await emptyDatabase();
    await migratePostgresToLatest(pool);
    await pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from-the-future', 't')", [latestPostgresSchemaVersion() + 1]);
    const error = await migratePostgresToLatest(pool).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as DatabaseTooNewError).databaseVersion).toBe(latestPostgresSchemaVersion() + 1);
    expect((await pool.query('SELECT count(*) AS n FROM schema_migrations')).rows[0]).toEqual({ n: postgresMigrations.length + 1 });
  });

  it('opens through openDatabase with a postgres:// URL, rows reading as on SQLite (numbers, not strings)', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const opened = await openDatabase(database.url, { poolSize: 2 });
    try {
      expect(opened.dialect).toBe('postgres');
      expect(opened.sqlite).toBeNull();
      const inserted = await opened.db.insertInto('organizations').values({ name: 'o', created_at: 't' }).returning('id').executeTakeFirstOrThrow();
      expect(typeof inserted.id).toBe('number');
      const counted = await opened.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(counted.n).toBe(1);
    } finally {
      await opened.close();
    }
  });
});
