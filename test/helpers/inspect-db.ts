import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { databaseUrlFor } from './process.js';

// Read-only look at the database of a data directory a spawned server uses (the SQLite file, or the
// directory's PostgreSQL database on a PostgreSQL run), for end-to-end tests that check what was stored.

export interface DatabaseInspector {
  /** Rows of a query written with `?` placeholders (made `$n` for PostgreSQL). */
  all<T = Record<string, unknown>>(query: string, ...parameters: unknown[]): Promise<T[]>;
  /** SQLite's integrity and foreign-key checks; PostgreSQL enforces both on every write, so none is left to find. */
  integrityProblems(): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function inspectDatabase(dataDir: string): Promise<DatabaseInspector> {
  const url = await databaseUrlFor(dataDir);
  if (url !== undefined) {
    // int8 (ids, counts) as numbers, as the application's own pool reads them.
    const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 1700 ? Number : pg.types.getTypeParser(oid, format ?? 'text')) };
    const client = new pg.Client({ connectionString: url, types: types as pg.CustomTypesConfig });
    await client.connect();
    let index = 0;
    return {
      all: async <T>(query: string, ...parameters: unknown[]) => {
        index = 0;
        return (await client.query(query.replace(/\?/g, () => `$${++index}`), parameters)).rows as T[];
      },
      integrityProblems: () => Promise.resolve([]),
      close: () => client.end(),
    };
  }
  const sqlite = new SQLite(path.join(dataDir, 'obscura.db'), { readonly: true, fileMustExist: true });
  return {
    all: <T>(query: string, ...parameters: unknown[]) => Promise.resolve(sqlite.prepare(query).all(...parameters) as T[]),
    integrityProblems: () => {
      const integrity = String(sqlite.pragma('integrity_check', { simple: true }));
      return Promise.resolve([...(integrity === 'ok' ? [] : [integrity]), ...(sqlite.pragma('foreign_key_check') as unknown[])]);
    },
    close: () => {
      sqlite.close();
      return Promise.resolve();
    },
  };
}
