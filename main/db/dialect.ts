import { PostgresAdapter, sql, type Expression, type RawBuilder } from 'kysely';

// Every difference between the two databases the queries must know about lives here; a query asks for the
// expression it needs and stays the same text on both where it can.

export type DialectName = 'sqlite' | 'postgres';

interface HasExecutor {
  getExecutor(): { adapter: unknown };
}

/** The dialect of a database handle or of a transaction opened on it (both share the adapter). */
export function dialectOf(db: HasExecutor): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export function isPostgres(db: HasExecutor): boolean {
  return dialectOf(db) === 'postgres';
}

/**
 * Whether a queue claim adds `FOR UPDATE SKIP LOCKED`: PostgreSQL has several writers at once; SQLite has one
 * writer at a time, so its plain conditional claim is already exclusive.
 */
export function skipsLockedRows(db: HasExecutor): boolean {
  return isPostgres(db);
}

/**
 * Whether request rate-limit windows are rows every process counts (`rate_windows`, an unlogged table on
 * PostgreSQL) or this process's memory (SQLite, with its fsync per commit; a desktop is one process).
 */
export function sharesRateWindows(db: HasExecutor): boolean {
  return isPostgres(db);
}

/** UTF-8 bytes of a text value (SQLite casts to a blob; PostgreSQL converts to bytea). */
export function utf8Bytes(db: HasExecutor, value: Expression<string> | RawBuilder<string>): RawBuilder<Uint8Array> {
  return isPostgres(db) ? sql<Uint8Array>`convert_to(${value}, 'UTF8')` : sql<Uint8Array>`cast(${value} as blob)`;
}

/** A join keyword that keeps the written table order: SQLite's CROSS JOIN; PostgreSQL plans it itself (and has no CROSS JOIN … ON). */
export function fixedOrderJoin(db: HasExecutor): RawBuilder<unknown> {
  return isPostgres(db) ? sql`join` : sql`cross join`;
}

/** A database target is a PostgreSQL URL or else a SQLite file path. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(target);
}

/** The URL with its password replaced, for messages and logs. */
export function redactDatabaseUrl(target: string): string {
  if (!isPostgresUrl(target)) return target;
  try {
    const url = new URL(target);
    if (url.password) url.password = '***';
    for (const key of [...url.searchParams.keys()]) if (/pass/i.test(key)) url.searchParams.set(key, '***');
    return url.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** Number of elements of a JSON array stored as text. */
export function jsonArrayLength(db: HasExecutor, column: Expression<string> | RawBuilder<string>): RawBuilder<number> {
  return isPostgres(db) ? sql<number>`json_array_length(${column}::json)` : sql<number>`json_array_length(${column})`;
}

/** A top-level field of a JSON object stored as text, as text (numbers as their decimal text). */
export function jsonField(db: HasExecutor, column: Expression<string | null> | RawBuilder<string | null>, field: string): RawBuilder<string | null> {
  return isPostgres(db) ? sql<string | null>`(${column}::json ->> ${sql.lit(field)})` : sql<string | null>`json_extract(${column}, ${sql.lit(`$.${field}`)})`;
}

/**
 * Case-insensitive form of a text value, ASCII letters only, as SQLite's NOCASE compares. On PostgreSQL the
 * unique indexes of the NOCASE columns are on exactly this expression (migrations-postgres), so it is used for
 * every lookup by such a column. On SQLite the column's own collation already folds; the value stays as is.
 */
export function foldCase(db: HasExecutor, value: Expression<string> | RawBuilder<string>): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`lower((${value}) COLLATE "C")` : sql<string>`${value}`;
}

/** Seconds from one ISO-8601 timestamp (stored as text) to another, fractional. */
export function secondsBetween(db: HasExecutor, earlier: Expression<string | null> | RawBuilder<string | null>, later: Expression<string | null> | RawBuilder<string | null>): RawBuilder<number> {
  return isPostgres(db)
    ? sql<number>`extract(epoch from ((${later})::timestamptz - (${earlier})::timestamptz))`
    : sql<number>`((julianday(${later}) - julianday(${earlier})) * 86400.0)`;
}

/** Sum of an integer column, 0 for no rows (SQLite's total() is a float; both give a JS number). */
export function totalOf(column: Expression<number> | RawBuilder<number>): RawBuilder<number> {
  return sql<number>`coalesce(sum(${column}), 0)`;
}

/** A condition that is never true, as a boolean on both (SQLite has no boolean literal before 3.23). */
export function never(): RawBuilder<boolean> {
  return sql<boolean>`1 = 0`;
}

/** Integer text of an id column, for comparing with ids stored as text (audit resource ids). */
export function idText(column: Expression<number> | RawBuilder<number>): RawBuilder<string> {
  return sql<string>`CAST(${column} AS TEXT)`;
}

/** Escapes LIKE metacharacters; use with `ESCAPE '\\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (match) => `\\${match}`);
}

/** PostgreSQL error codes the application reacts to (SQLSTATE). */
const PG_UNIQUE_VIOLATION = '23505';
const PG_SERIALIZATION_FAILURE = '40001';
const PG_DEADLOCK = '40P01';

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** A unique constraint refused the write (either database). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === PG_UNIQUE_VIOLATION || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The transaction lost a race PostgreSQL detected; running it again is safe. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = codeOf(error);
  return code === PG_SERIALIZATION_FAILURE || code === PG_DEADLOCK;
}
