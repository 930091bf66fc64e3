import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { isPostgresUrl, redactDatabaseUrl, type DialectName } from './dialect.js';
import { migrateToLatest, migratePostgresToLatest } from './migrator.js';

export const DATABASE_FILE_NAME = 'obscura.db';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  dialect: DialectName;
  /** The SQLite handle; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  close(): Promise<void>;
}

/** Opens the SQLite file with the durability settings every process must share. */
export function openSqlite(file: string): SQLite.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
  if (file !== ':memory:' && process.platform !== 'win32') {
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    fs.chmodSync(file, 0o600);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  if (file !== ':memory:' && process.platform !== 'win32') {
    for (const side of [`${file}-wal`, `${file}-shm`]) if (fs.existsSync(side)) fs.chmodSync(side, 0o600);
  }
  // FULL: a commit that returned is on disk even after power loss, not just a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Long enough for a writer of one process to get its turn while other processes on the file keep writing.
  sqlite.pragma('busy_timeout = 20000');
  return sqlite;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement again on every query; preparing costs ten times more than running a
 * small query. This hands Kysely a view of the connection that reuses prepared statements by SQL text.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string) {
      // Kysely opens transactions with a deferred `begin`. Other processes may share this file (issue 21):
      // a deferred transaction that read and then writes fails at once (SQLITE_BUSY_SNAPSHOT) when another
      // process committed in between; IMMEDIATE takes the write lock first and waits (busy_timeout) instead.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = cache.get(sql);
      if (statement) {
        // Re-insert to keep the map in least-recently-used order.
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

/** Runs an already compiled read directly on the connection, or returns undefined when it must go through Kysely. */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const directReaders = new WeakMap<object, DirectReader>();

/**
 * For the precompiled lookups on every request's path: Kysely's executeQuery (connection mutex, several
 * promises) costs more than the indexed SELECT itself. Only the root database handle has a direct reader
 * (a transaction's executor does not), and it declines while any transaction is open on the connection, so
 * a direct read runs exactly where Kysely would have run it: in autocommit, never inside another request's
 * unfinished transaction.
 */
export function directReaderFor(db: object): DirectReader | undefined {
  return directReaders.get(db);
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: connections in the pool (default 10, or OBSCURA_DATABASE_POOL_SIZE). */
  poolSize?: number;
}

/** Opens and migrates the database at `target`: a `postgres://` URL, or else the path of a SQLite file. */
export async function openDatabase(target: string, options: OpenDatabaseOptions = {}): Promise<OpenedDatabase> {
  return isPostgresUrl(target) ? openPostgres(target, options) : openSqliteDatabase(target);
}

async function openSqliteDatabase(file: string): Promise<OpenedDatabase> {
  const sqlite = openSqlite(file);
  try {
    migrateToLatest(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const connection = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  directReaders.set(db, (sql, parameters) => {
    if (sqlite.inTransaction || !sqlite.open) return undefined;
    const statement = connection.prepare(sql);
    return statement.reader ? (statement.all(parameters) as unknown[]) : undefined;
  });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    // Kysely's destroy() closes the better-sqlite3 handle it was given.
    close: () => db.destroy(),
  };
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * The pool's own type parsers (never pg's global ones): 64-bit integers (ids, sizes, counts) and numeric
 * (sums) come back as JS numbers, so a row read from PostgreSQL looks exactly like one read from SQLite.
 */
const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export function postgresPoolSize(options: OpenDatabaseOptions = {}): number {
  const fromEnv = Number(process.env.OBSCURA_DATABASE_POOL_SIZE);
  return options.poolSize ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 10);
}

/** A pg pool with the parsers above; callers end it. */
export function createPostgresPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types: postgresTypes, application_name: 'obscura' });
  // An idle connection the server closed (restart, admin kill) must not crash the process; the pool replaces it.
  pool.on('error', (error) => process.stderr.write(`database connection lost (${redactDatabaseUrl(url)}): ${error.message}\n`));
  return pool;
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const pool = createPostgresPool(url, postgresPoolSize(options));
  try {
    await migratePostgresToLatest(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const close = async () => {
    await db.destroy();
    // Kysely ends the pool only if it ran a query; the migrator's connection must not outlive close().
    if (!pool.ended) await pool.end();
  };
  return { db, dialect: 'postgres', sqlite: null, close };
}
