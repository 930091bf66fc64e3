// A real Obscura instance for the benchmarks: temp data dir, rate limits lifted (or counted with limits no run
// reaches, input `{rateLimits: true}`: every request then also counts in the shared windows), one organization and its
// API key, one case created through the API itself. Every request still goes through the host/origin
// guard, key authentication, scope checks, the idempotency hooks and zod response serialisation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveTarget, targetInput } from '../lib/target.js';

// The server under test is the compiled build (`npm run bench` builds first), not the TypeScript sources
// through tsx's loader, so the numbers are those of the shipped code.
const dist = new URL('../../dist/main/', import.meta.url);
if (!fs.existsSync(new URL('http/server.js', dist))) throw new Error('dist/ is missing: run `npm run build:main` first');
const { loadConfig } = (await import(new URL('config.js', dist).href)) as typeof import('../../main/config.js');
const { createHttpServer } = (await import(new URL('http/server.js', dist).href)) as typeof import('../../main/http/server.js');
const { openRuntime } = (await import(new URL('runtime.js', dist).href)) as typeof import('../../main/runtime.js');
const { createOrganization } = (await import(new URL('services/bootstrap.js', dist).href)) as typeof import('../../main/services/bootstrap.js');
const { systemClock } = (await import(new URL('services/context.js', dist).href)) as typeof import('../../main/services/context.js');

export interface ObscuraTargetInput {
  rateLimits?: boolean;
}

export interface ObscuraTargetInfo {
  baseUrl: string;
  apiKey: string;
  caseId: string;
  dataDir: string;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-'));
const unreachable = { limit: 1_000_000_000, windowSeconds: 60 };
const rateLimits = targetInput<ObscuraTargetInput | null>()?.rateLimits ? { enabled: true, perRawKey: unreachable, perApiKey: unreachable, perOrganization: unreachable } : { enabled: false };
const config = loadConfig(dataDir, { port: 0, rateLimits });
const runtime = await openRuntime(dataDir, config, systemClock);
const org = await createOrganization(runtime.db, systemClock, { name: 'Bench organization', adminUsername: 'bench-admin' });
const server = await createHttpServer(runtime, { logger: false });
const baseUrl = await server.listen('127.0.0.1', 0);

const created = await fetch(`${baseUrl}/api/v1/cases`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': org.api_key, 'idempotency-key': 'bench-create-case' },
  body: JSON.stringify({
    name: 'FOIA-2024-0193: records of the municipal parking enforcement contract',
    description: 'Benchmark case: all correspondence between the city and the contractor, 2021 to 2023.',
    priority: 'high',
    dueDate: '2024-12-31',
  }),
});
if (created.status !== 201) throw new Error(`creating the benchmark case failed: ${created.status} ${await created.text()}`);
const caseId = ((await created.json()) as { data: { id: string } }).data.id;

const info: ObscuraTargetInfo = { baseUrl, apiKey: org.api_key, caseId, dataDir };
serveTarget({ ...info }, async () => {
  await server.close();
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
