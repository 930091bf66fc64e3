import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { DATABASE_FILE_NAME, openDatabase } from '../db/connection.js';
import { redactDatabaseUrl } from '../db/dialect.js';
import { countOrganizations } from '../db/queries/organizations.js';
import { createOrganization, type InitialCredentials } from './bootstrap.js';
import type { Clock } from './context.js';

export const CREDENTIALS_FILE_NAME = 'initial-credentials.json';

export function dataPaths(dataDir: string) {
  return {
    database: path.join(dataDir, DATABASE_FILE_NAME),
    blobs: path.join(dataDir, 'blobs'),
    credentials: path.join(dataDir, CREDENTIALS_FILE_NAME),
  };
}

export class AlreadyInitialisedError extends Error {
  constructor(where: string) {
    super(`${where} is already initialised (it holds an Obscura database); nothing was changed`);
    this.name = 'AlreadyInitialisedError';
  }
}

/** The database a data directory's instance uses: the PostgreSQL URL when one is configured, else its SQLite file. */
export function databaseTarget(dataDir: string, databaseUrl?: string): string {
  return databaseUrl ?? dataPaths(dataDir).database;
}

/** Without an explicit URL: the one config.json or OBSCURA_DATABASE_URL names, if any. */
function configuredDatabaseUrl(dataDir: string): string | undefined {
  return loadConfig(dataDir).databaseUrl;
}

export async function isInitialised(dataDir: string, databaseUrl = configuredDatabaseUrl(dataDir)): Promise<boolean> {
  const target = databaseTarget(dataDir, databaseUrl);
  if (databaseUrl === undefined && !fs.existsSync(target)) return false;
  const opened = await openDatabase(target, { poolSize: 1 });
  try {
    return (await countOrganizations(opened.db)) > 0;
  } finally {
    await opened.close();
  }
}

/** Creates the database and the first organization; refuses a directory that already has one. */
export async function initialiseDataDir(dataDir: string, clock: Clock, databaseUrl = configuredDatabaseUrl(dataDir)): Promise<InitialCredentials> {
  if (await isInitialised(dataDir, databaseUrl)) {
    throw new AlreadyInitialisedError(databaseUrl === undefined ? dataDir : `${dataDir} with its PostgreSQL database ${redactDatabaseUrl(databaseUrl)}`);
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const opened = await openDatabase(databaseTarget(dataDir, databaseUrl), { poolSize: 1 });
  try {
    return await createOrganization(opened.db, clock, { name: 'Default organization', adminUsername: 'admin' });
  } finally {
    await opened.close();
  }
}

/** Keeps the generated credentials readable by the owner only, for a person who missed the console. */
export function writeCredentialsFile(dataDir: string, credentials: InitialCredentials): string {
  const file = dataPaths(dataDir).credentials;
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'w' });
  fs.chmodSync(file, 0o600);
  return file;
}

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

function tighten(target: string, mode: number): void {
  const stat = fs.lstatSync(target, { throwIfNoEntry: false });
  // Links are never followed: a link planted in the data directory must not make us chmod its target.
  if (!stat || stat.isSymbolicLink()) return;
  if ((stat.mode & 0o777) !== mode) fs.chmodSync(target, mode);
}

/**
 * The data directory holds the database (with the session signing key) and every uploaded document: only
 * its owner may read it, whatever modes an earlier version or a copied backup left. Directories 0700,
 * files 0600, walked once at start (a chmod only where the mode differs). Not on Windows, whose ACLs
 * the per-user profile folder already restricts.
 */
export function secureDataDir(dataDir: string): void {
  if (process.platform === 'win32') return;
  const { database, blobs, credentials } = dataPaths(dataDir);
  tighten(dataDir, PRIVATE_DIR);
  for (const file of [database, `${database}-wal`, `${database}-shm`, `${database}-journal`, credentials]) tighten(file, PRIVATE_FILE);
  const pending = [blobs];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) continue;
    tighten(dir, PRIVATE_DIR);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else if (entry.isFile()) tighten(child, PRIVATE_FILE);
    }
  }
}
