// An Obscura instance for the redaction benchmark: temp data dir, rate limits lifted, one organization,
// one case and `documents` empty PDF documents (one per save round, so every save writes 1,000 new boxes).
// Requests go through the full application API: session check, routing, validation, one transaction.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveTarget, targetInput } from '../lib/target.js';

// The compiled build, as in obscura-api.ts: the numbers are those of the shipped code.
const dist = new URL('../../dist/main/', import.meta.url);
if (!fs.existsSync(new URL('http/server.js', dist))) throw new Error('dist/ is missing: run `npm run build:main` first');
const load = async <T>(file: string): Promise<T> => (await import(new URL(file, dist).href)) as T;
const { loadConfig } = await load<typeof import('../../main/config.js')>('config.js');
const { createHttpServer } = await load<typeof import('../../main/http/server.js')>('http/server.js');
const { openRuntime } = await load<typeof import('../../main/runtime.js')>('runtime.js');
const { createOrganization } = await load<typeof import('../../main/services/bootstrap.js')>('services/bootstrap.js');
const { systemClock } = await load<typeof import('../../main/services/context.js')>('services/context.js');
const { insertBlobIfAbsent } = await load<typeof import('../../main/db/queries/blobs.js')>('db/queries/blobs.js');
const { insertCase } = await load<typeof import('../../main/db/queries/cases.js')>('db/queries/cases.js');
const { insertDocument } = await load<typeof import('../../main/db/queries/documents.js')>('db/queries/documents.js');

export interface RedactionTargetInput {
  documents: number;
}

export interface RedactionTargetInfo {
  baseUrl: string;
  username: string;
  password: string;
  documentIds: number[];
}

const input = targetInput<RedactionTargetInput>();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-redactions-'));
const runtime = await openRuntime(dataDir, loadConfig(dataDir, { port: 0, rateLimits: { enabled: false } }), systemClock);
const org = await createOrganization(runtime.db, systemClock, { name: 'Bench', adminUsername: 'bench-admin' });
const organizationId = Number(org.organization_id);
const now = new Date().toISOString();
const caseId = await insertCase(runtime.db, { organization_id: organizationId, name: 'bench', description: '', status: 'open', priority: 'normal', due_date: null, created_at: now, updated_at: now, deleted_at: null });
const sha256 = 'a'.repeat(64);
await insertBlobIfAbsent(runtime.db, sha256, 1, now);
const documentIds: number[] = [];
for (let index = 0; index < input.documents; index += 1) {
  documentIds.push(
    await insertDocument(runtime.db, {
      organization_id: organizationId,
      case_id: caseId,
      file_name: `bench-${index}.pdf`,
      description: '',
      sha256,
      size: 1,
      media_type: 'application/pdf',
      document_type: 'pdf',
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }),
  );
}
const server = await createHttpServer(runtime, { logger: false });
const baseUrl = await server.listen('127.0.0.1', 0);

const info: RedactionTargetInfo = { baseUrl, username: org.admin_username, password: org.admin_password, documentIds };
serveTarget({ ...info }, async () => {
  await server.close();
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
