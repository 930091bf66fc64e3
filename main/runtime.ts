import fs from 'node:fs';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/connection.js';
import { listBlobHashes } from './db/queries/blobs.js';
import { transact } from './db/transaction.js';
import { deleteExpiredDownloadTokens } from './db/queries/download-tokens.js';
import { deleteIdempotencyKeysBefore, releaseAllRunningIdempotencyKeys } from './db/queries/idempotency-keys.js';
import { configureWorkerLimits } from './jobs/pool.js';
import { LocalBlobStore, type BlobStore } from './services/blob-store.js';
import { systemClock, type Clock } from './services/context.js';
import { recoverInterruptedExports } from './services/exports.js';
import { recoverInterruptedJobs } from './services/jobs.js';
import { dataPaths, databaseTarget, secureDataDir } from './services/data-dir.js';
import { announcePresence } from './cluster/presence.js';
import { watchSharedEpochs } from './db/shared-epochs.js';

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
  const opened = await openDatabase(databaseTarget(dataDir, config.databaseUrl));
  // The S3 client is loaded only for an office that stores blobs in a bucket: it is the heaviest module of the
  // main process, and a desktop install never needs it.
  const blobs: BlobStore =
    config.blobStore.kind === 's3'
      ? new (await import('./services/s3-blob-store.js')).S3BlobStore(paths.blobs, config.blobStore)
      : new LocalBlobStore(paths.blobs);
  const presence = await announcePresence(opened.db, config.leases.seconds);
  await recoverAfterStart(opened.db, blobs, config, clock, (await presence.others()).length === 0);
  const epochs = await watchSharedEpochs(opened.db, config.databaseUrl);
  const close = async () => {
    await epochs.stop();
    await presence.stop().catch(() => undefined);
    await opened.close();
  };
  return { dataDir, config, db: opened.db, blobs, clock, close };
}

/**
 * Nothing runs before this: whatever a killed process left half-done is settled here. With other processes
 * on the database (`alone` false) their requests, uploads and temp files may be in progress: only what
 * leases prove abandoned (jobs, exports) is taken back.
 */
async function recoverAfterStart(db: Db, blobs: BlobStore, config: Config, clock: Clock, alone: boolean): Promise<void> {
  if (alone) await releaseAllRunningIdempotencyKeys(db);
  const now = clock.now();
  await deleteIdempotencyKeysBefore(db, new Date(now.getTime() - config.idempotencyRetentionHours * 3600_000).toISOString());
  await deleteExpiredDownloadTokens(db, now.toISOString());
  if (alone) await blobs.sweep(await listBlobHashes(db));
  await transact(db, (trx) => recoverInterruptedJobs(trx, clock, config.jobs.maxAttempts));
  await transact(db, (trx) => recoverInterruptedExports(trx, clock, config.exports.maxAttempts));
}
