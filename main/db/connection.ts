import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrator.js';

export const DATABASE_FILE_NAME = 'obscura.db';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  sqlite: SQLite.Database;
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
  sqlite.pragma('busy_timeout = 5000');
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
    prepare(sql: string) {
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

export async function openDatabase(file: string): Promise<OpenedDatabase> {
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
    sqlite,
    // Kysely's destroy() closes the better-sqlite3 handle it was given.
    close: () => db.destroy(),
  };
}
