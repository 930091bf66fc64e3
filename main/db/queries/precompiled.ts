import type { CompiledQuery } from 'kysely';
import { directReaderFor } from '../connection.js';
import type { Executor } from './executor.js';

/**
 * A query built and compiled by Kysely once, then run with fresh parameters. For the few lookups on
 * every request's path: building and compiling costs twice the SQL itself. `build` receives placeholder
 * values; the parameters passed later must come in the same order as those placeholders.
 */
export function precompiled<Row, Params extends unknown[]>(
  build: (db: Executor, ...placeholders: Params) => { compile(): CompiledQuery<Row> },
  placeholders: Params,
) {
  const run = precompiledWithSource(build, placeholders);
  return async (db: Executor, ...parameters: Params): Promise<Row[]> => (await run(db, ...parameters)).rows;
}

/**
 * Like precompiled, and also says whether the rows were read directly in autocommit mode, i.e. are
 * committed data (never another request's unfinished transaction): only such rows may be cached.
 */
export function precompiledWithSource<Row, Params extends unknown[]>(
  build: (db: Executor, ...placeholders: Params) => { compile(): CompiledQuery<Row> },
  placeholders: Params,
) {
  let compiled: CompiledQuery<Row> | undefined;
  return async (db: Executor, ...parameters: Params): Promise<{ rows: Row[]; committed: boolean }> => {
    compiled ??= build(db, ...placeholders).compile();
    if (compiled.parameters.length !== parameters.length) throw new Error('precompiled query: parameter count changed');
    // Outside transactions the statement runs directly (see directReaderFor); the rows are the same.
    const rows = directReaderFor(db)?.(compiled.sql, parameters);
    if (rows) return { rows: rows as Row[], committed: true };
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return { rows: result.rows, committed: false };
  };
}
