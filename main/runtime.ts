import fs from 'node:fs';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/connection.js';
import { listBlobHashes } from './db/queries/blobs.js';
import { deleteExpiredDownloadTokens } from './db/queries/download-tokens.js';
import { deleteIdempotencyKeysBefore, releaseAllRunningIdempotencyKeys } from './db/queries/idempotency-keys.js';
import { configureWorkerLimits } from './jobs/pool.js';
import { BlobStore } from './services/blob-store.js';
import { systemClock, type Clock } from './services/context.js';
import { recoverInterruptedExports } from './services/exports.js';
import { recoverInterruptedJobs } from './services/jobs.js';
import { dataPaths, secureDataDir } from './services/data-dir.js';

/** Everything a running Obscura instance holds open, shared by the HTTP surfaces and background work. */
export interface Runtime {
  dataDir: string;
  config: Config;
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  close(): Promise<void>;
}

export async function openRuntime(dataDir: string, config: Config, clock: Clock = systemClock): Promise<Runtime> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  secureDataDir(dataDir);
  configureWorkerLimits(config.parserLimits);
  const paths = dataPaths(dataDir);
  const opened = await openDatabase(paths.database);
  const blobs = new BlobStore(paths.blobs);
  await recoverAfterStart(opened.db, blobs, config, clock);
  return { dataDir, config, db: opened.db, blobs, clock, close: opened.close };
}

/** Nothing runs before this: whatever a killed process left half-done is settled here. */
async function recoverAfterStart(db: Db, blobs: BlobStore, config: Config, clock: Clock): Promise<void> {
  await releaseAllRunningIdempotencyKeys(db);
  const now = clock.now();
  await deleteIdempotencyKeysBefore(db, new Date(now.getTime() - config.idempotencyRetentionHours * 3600_000).toISOString());
  await deleteExpiredDownloadTokens(db, now.toISOString());
  await blobs.sweep(await listBlobHashes(db));
  await db.transaction().execute((trx) => recoverInterruptedJobs(trx, clock, config.jobs.maxAttempts));
  await db.transaction().execute((trx) => recoverInterruptedExports(trx, clock, config.exports.maxAttempts));
}
