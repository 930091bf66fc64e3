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
 * A direct read answers synchronously (no promise), so a hot read path can stay synchronous end to end.
 */
export function precompiledWithSource<Row, Params extends unknown[]>(
  build: (db: Executor, ...placeholders: Params) => { compile(): CompiledQuery<Row> },
  placeholders: Params,
) {
  let compiled: CompiledQuery<Row> | undefined;
  return (db: Executor, ...parameters: Params): SourcedRows<Row> | Promise<SourcedRows<Row>> => {
    compiled ??= build(db, ...placeholders).compile();
    if (compiled.parameters.length !== parameters.length) throw new Error('precompiled query: parameter count changed');
    // Outside transactions the statement runs directly (see directReaderFor); the rows are the same.
    const rows = directReaderFor(db)?.(compiled.sql, parameters);
    if (rows) return { rows: rows as Row[], committed: true };
    return db.executeQuery<Row>({ ...compiled, parameters }).then((result) => ({ rows: result.rows, committed: false }));
  };
}

export interface SourcedRows<Row> {
  rows: Row[];
  committed: boolean;
}
