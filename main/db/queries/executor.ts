import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The database or an open transaction; every query function takes one so services decide the transaction. */
export type Executor = Kysely<Database>;
