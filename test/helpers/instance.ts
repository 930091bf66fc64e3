import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type ConfigInput } from '../../main/config.js';
import { createHttpServer, type ObscuraServer } from '../../main/http/server.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { createOrganization, type InitialCredentials } from '../../main/services/bootstrap.js';
import { systemClock, type Clock } from '../../main/services/context.js';
import { generatePassword, hashPassword } from '../../main/services/secrets.js';
import { DATABASE_FILE_NAME, openDatabase } from '../../main/db/connection.js';
import { createTestDatabase, onPostgres } from './test-database.js';
import { tempDir } from './temp.js';

export { minimalPdf, tempDir } from './temp.js';


export interface TestInstance {
  dataDir: string;
  runtime: Runtime;
  server: ObscuraServer;
  baseUrl: string;
  /** The Host header the server accepts, e.g. 127.0.0.1:43121. */
  host: string;
  orgs: InitialCredentials[];
  /** inject() with the server's own Host header, JSON body, and optional key / idempotency key. */
  request(options: ApiRequest): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface ApiRequest {
  method: InjectOptions['method'];
  url: string;
  key?: string | null;
  body?: unknown;
  /** POST/PUT/PATCH get a fresh Idempotency-Key unless this is given (null: send none). */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
}

let counter = 0;

let sqliteTemplate: Promise<string> | undefined;

/**
 * A SQLite file at the latest schema version, made once per test process: each instance starts from a copy,
 * as the PostgreSQL run starts from its template database, instead of running every migration again (the
 * migrations are deterministic; test/unit/migrations.test.ts runs them on empty files).
 */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const file = path.join(tempDir('obscura-template-'), DATABASE_FILE_NAME);
    await (await openDatabase(file)).close();
    return file;
  })();
  return sqliteTemplate;
}

let adminPassword: Promise<{ password: string; hash: string }> | undefined;

/**
 * The administrators' password of this process's instances, hashed once: scrypt at its production cost takes
 * about 100 ms and every instance makes two administrators. Instances are separate databases, so sharing it lets
 * no one in anywhere else; `obscura init` (the e2e tests) still generates and hashes its own.
 */
function sharedAdminPassword(): Promise<{ password: string; hash: string }> {
  adminPassword ??= (async () => {
    const password = generatePassword();
    return { password, hash: await hashPassword(password) };
  })();
  return adminPassword;
}

/**
 * A real server on a real SQLite file in a temp directory (or, with OBSCURA_TEST_DATABASE=postgres, its own
 * fresh PostgreSQL database, named in the directory's config.json so a test reopening it gets the same one),
 * listening on a free loopback port.
 */
/**
 * autoProcess: leave the organizations' automatic processing at the product default (on). Off otherwise, so
 * suites that assert exact job lists see only the jobs they start (issue 18).
 */
export async function startInstance(options: { organizations?: number; config?: ConfigInput; clock?: Clock; autoProcess?: boolean } = {}): Promise<TestInstance> {
  const dataDir = tempDir();
  const database = onPostgres() ? await createTestDatabase() : null;
  if (database) fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ databaseUrl: database.url }), { mode: 0o600 });
  else if (!options.config?.databaseUrl) fs.copyFileSync(await migratedSqliteTemplate(), path.join(dataDir, DATABASE_FILE_NAME));
  const config = loadConfig(dataDir, { port: 0, ...options.config });
  const clock = options.clock ?? systemClock;
  const runtime = await openRuntime(dataDir, config, clock);
  const orgs: InitialCredentials[] = [];
  for (let index = 0; index < (options.organizations ?? 2); index += 1) {
    orgs.push(await createOrganization(runtime.db, clock, { name: `Org ${index + 1}`, adminUsername: `admin${index + 1}-${process.pid}-${counter++}`, adminPassword: await sharedAdminPassword() }));
  }
  if (!options.autoProcess) await runtime.db.updateTable('organizations').set({ auto_process: 0 }).execute();
  const server = await createHttpServer(runtime);
  const baseUrl = await server.listen('127.0.0.1', 0);
  const host = new URL(baseUrl).host;
  const defaultKey = orgs[0]?.api_key;
  return {
    dataDir,
    runtime,
    server,
    baseUrl,
    host,
    orgs,
    request({ method, url, key, body, idempotencyKey, headers }) {
      const apiKey = key === undefined ? defaultKey : key;
      const mutating = method === 'POST' || method === 'PUT' || method === 'PATCH';
      const idem = idempotencyKey === undefined ? (mutating ? `test-${Date.now()}-${counter++}` : null) : idempotencyKey;
      return server.app.inject({
        method,
        url,
        headers: {
          host,
          ...(apiKey && { 'x-api-key': apiKey }),
          ...(idem && { 'idempotency-key': idem }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
    },
    async close() {
      await server.close();
      await runtime.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a case through the API and returns its id. */
export async function createCase(instance: TestInstance, name = 'Test case', key?: string): Promise<string> {
  const response = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name }, ...(key && { key }) });
  if (response.statusCode !== 201) throw new Error(`create case failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { data: { id: string } }).data.id;
}


/** Uploads files through a session (PUT to each upload_url via inject) and completes it. */
export async function uploadDocuments(instance: TestInstance, caseId: string, files: { name: string; bytes: Buffer }[], key?: string) {
  const session = await instance.request({
    method: 'POST',
    url: `/api/v1/cases/${caseId}/upload-sessions`,
    body: { files: files.map((file) => ({ name: file.name, size: file.bytes.length })) },
    ...(key && { key }),
  });
  if (session.statusCode !== 201) throw new Error(`upload session failed: ${session.statusCode} ${session.body}`);
  const data = (session.json() as { data: { id: string; files: { upload_url: string }[] } }).data;
  for (const [index, file] of data.files.entries()) {
    const put = await instance.server.app.inject({
      method: 'PUT',
      url: new URL(file.upload_url).pathname,
      headers: { host: instance.host, 'content-type': 'application/octet-stream' },
      payload: files[index]?.bytes ?? Buffer.alloc(0),
    });
    if (put.statusCode !== 200) throw new Error(`upload failed: ${put.statusCode} ${put.body}`);
  }
  const complete = await instance.request({ method: 'POST', url: `/api/v1/upload-sessions/${data.id}/complete`, ...(key && { key }) });
  if (complete.statusCode !== 200) throw new Error(`complete failed: ${complete.statusCode} ${complete.body}`);
  return (complete.json() as { data: { documents: { id: string; sha256: string }[] } }).data.documents;
}
