import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE_NAME, openDatabase } from '../db/connection.js';
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
  constructor(dataDir: string) {
    super(`${dataDir} is already initialised (it holds an Obscura database); nothing was changed`);
    this.name = 'AlreadyInitialisedError';
  }
}

export async function isInitialised(dataDir: string): Promise<boolean> {
  const { database } = dataPaths(dataDir);
  if (!fs.existsSync(database)) return false;
  const opened = await openDatabase(database);
  try {
    return (await countOrganizations(opened.db)) > 0;
  } finally {
    await opened.close();
  }
}

/** Creates the database and the first organization; refuses a directory that already has one. */
export async function initialiseDataDir(dataDir: string, clock: Clock): Promise<InitialCredentials> {
  if (await isInitialised(dataDir)) throw new AlreadyInitialisedError(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const opened = await openDatabase(dataPaths(dataDir).database);
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
