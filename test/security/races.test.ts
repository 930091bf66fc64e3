import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJob } from '../../main/db/queries/jobs.js';
import { authenticateApiKey } from '../../main/services/api-keys.js';
import { revokeApiKey } from '../../main/services/api-key-management.js';
import { claimNextJob } from '../../main/services/jobs.js';
import { createApiKeyForTest } from '../helpers/security-support.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { orgId } from '../helpers/integration-support.js';
import { onPostgres } from '../helpers/test-database.js';
import { transact } from '../../main/db/transaction.js';

// Findings from review: the job claim ignored the result of its conditional update (two claimants could
// both run one job); the API-key cache must not keep a key revoked by a transaction that was open while
// a lookup read it.

describe('security: races', () => {
  let instance: TestInstance;
  let documentId: number;

  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
    const caseId = await createCase(instance);
    const [document] = await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf() }]);
    documentId = Number(document?.id);
  });
  afterAll(() => instance.close());

  it('two claimants racing for one queued job: exactly one gets it, and it is marked running once', async () => {
    const { db, clock } = instance.runtime;
    const now = clock.now().toISOString();
    const jobId = await insertJob(db, { organization_id: orgId(instance), document_id: documentId, kind: 'scan', status: 'queued', options: '{}', progress: 0, attempts: 0, result: null, error_message: null, created_at: now, started_at: null, finished_at: null, updated_at: now });
    const claims = await Promise.all([claimNextJob(db, clock), claimNextJob(db, clock)]);
    const won = claims.filter((claim) => claim !== null);
    expect(won.map((claim) => claim?.job.id)).toEqual([jobId]);
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'running', attempts: 1 });
  });

  it('a lookup started while the revoking transaction is still open, and every one after it, refuses the key', async () => {
    const { db, clock } = instance.runtime;
    const key = await createApiKeyForTest(instance, ['cases:read']);
    await authenticateApiKey(db, key.plaintext, clock.now()); // cached
    const ctx = { actor: { type: 'api_key' as const, id: 'test', organizationId: orgId(instance) }, requestId: null, clock };
    const inFlight: Promise<unknown>[] = [];
    // transact(): how the API runs a revocation (on PostgreSQL its change signal goes out after the commit).
    await transact(db, async (trx) => {
      await revokeApiKey(trx, ctx, key.id);
      inFlight.push(authenticateApiKey(db, key.plaintext, clock.now()).catch((error: unknown) => error));
    });
    const results = await Promise.all(inFlight);
    // SQLite runs the lookup after the revoking transaction (one connection). PostgreSQL runs it beside the open
    // transaction and reads the last committed key, as MVCC does; from the commit on, every lookup refuses it.
    if (!onPostgres()) for (const result of results) expect(result).toMatchObject({ code: 'authentication_failed' });
    await expect(authenticateApiKey(db, key.plaintext, clock.now())).rejects.toMatchObject({ code: 'authentication_failed' });
    const response = await instance.request({ method: 'GET', url: '/api/v1/cases', key: key.plaintext });
    expect(response.statusCode).toBe(401);
  });
});
