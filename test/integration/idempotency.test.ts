import fs from 'node:fs';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../main/config.js';
import type { Db } from '../../main/db/connection.js';
import { claimIdempotencyKey, findIdempotencyKey, releaseIdempotencyKey } from '../../main/db/queries/idempotency-keys.js';
import { createHttpServer } from '../../main/http/server.js';
import { runMaintenance } from '../../main/jobs/maintenance.js';
import { openRuntime } from '../../main/runtime.js';
import type { Clock } from '../../main/services/context.js';
import { createCase, startInstance, uploadDocuments, type ApiRequest, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { apiKeyIdOf, countRows, issueSiblingKey } from '../helpers/rows.js';
import { onPostgres } from '../helpers/test-database.js';

interface ErrorBody {
  error: { code: string; message: string; details?: { field: string }[] };
  request_id: string;
}
interface CaseBody {
  data: { id: string; status: string; description: string };
  request_id: string;
}

/** A clock the test moves by hand. */
class ManualClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  advanceHours(hours: number): void {
    this.current = new Date(this.current.getTime() + hours * 3600_000);
  }
}

/** Everything whose row count shows whether a change happened. */
async function effects(db: Db) {
  return {
    cases: await countRows(db, 'cases'),
    documents: await countRows(db, 'documents'),
    upload_sessions: await countRows(db, 'upload_sessions'),
    audit_log: await countRows(db, 'audit_log'),
    outbox_events: await countRows(db, 'outbox_events'),
  };
}

function expectError(response: LightMyRequestResponse, status: number, code: string): ErrorBody {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<ErrorBody>();
  expect(body.error.code).toBe(code);
  expect(body.request_id).toEqual(expect.any(String));
  return body;
}

async function storedRow(instance: TestInstance, key: string, apiKey = instance.orgs[0]?.api_key ?? '') {
  return findIdempotencyKey(instance.runtime.db, { type: 'api_key', id: await apiKeyIdOf(instance.runtime.db, apiKey) }, key);
}

/** Stops the server and closes the database but keeps the data directory, like a process that exits. */
async function shutDown(instance: TestInstance): Promise<void> {
  await instance.server.close();
  await instance.runtime.close();
}

/** A new runtime and server on the same data directory, with the same request helper as the test instance. */
async function restart(instance: TestInstance, config: ConfigInput = {}, clock?: Clock): Promise<TestInstance> {
  await shutDown(instance);
  const runtime = await openRuntime(instance.dataDir, loadConfig(instance.dataDir, { port: 0, ...config }), clock);
  const server = await createHttpServer(runtime);
  const baseUrl = await server.listen('127.0.0.1', 0);
  const host = new URL(baseUrl).host;
  const restarted: TestInstance = {
    ...instance,
    runtime,
    server,
    baseUrl,
    host,
    request(options: ApiRequest) {
      const apiKey = options.key === undefined ? instance.orgs[0]?.api_key : options.key;
      return server.app.inject({
        method: options.method,
        url: options.url,
        headers: {
          host,
          ...(apiKey && { 'x-api-key': apiKey }),
          ...(options.idempotencyKey && { 'idempotency-key': options.idempotencyKey }),
          ...(options.body !== undefined && { 'content-type': 'application/json' }),
          ...options.headers,
        },
        ...(options.body !== undefined && { payload: JSON.stringify(options.body) }),
      });
    },
    async close() {
      await shutDown(restarted);
      fs.rmSync(instance.dataDir, { recursive: true, force: true });
    },
  };
  return restarted;
}

describe('Idempotency-Key', () => {
  let instance: TestInstance;
  beforeEach(async () => {
    // Walking every mutating route of the OpenAPI document sends more than the spec's 60 requests per raw key.
    instance = await startInstance({ config: { rateLimits: { perRawKey: { limit: 1000, windowSeconds: 60 } } } });
  });
  afterEach(() => instance.close());

  describe('is required on every POST, PUT and PATCH of /api/v1', () => {
    /** Every mutating operation the OpenAPI document publishes, with its path filled in with real ids. */
    async function mutatingRoutes() {
      const caseId = await createCase(instance);
      const [document] = await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf() }]);
      const session = await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: { files: [] } });
      const ids: Record<string, string> = { case_id: caseId, document_id: document?.id ?? '', upload_session_id: session.json<{ data: { id: string } }>().data.id };
      const openapi = (await instance.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
      return Object.entries(openapi.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => ['post', 'put', 'patch'].includes(method))
          .map((method) => ({
            method: method.toUpperCase() as 'POST' | 'PUT' | 'PATCH',
            path,
            url: `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '1')}`,
          })),
      );
    }

    it('the OpenAPI document lists at least the mutating routes of cases, documents and uploads', async () => {
      const listed = (await mutatingRoutes()).map((route) => `${route.method} ${route.path}`);
      expect(listed).toEqual(
        expect.arrayContaining([
          'POST /cases',
          'PATCH /cases/{case_id}',
          'POST /cases/{case_id}/actions',
          'POST /cases/{case_id}/upload-sessions',
          'POST /upload-sessions/{upload_session_id}/complete',
          'PATCH /documents/{document_id}',
        ]),
      );
    });

    it('answers 400 validation_error naming Idempotency-Key when it is missing, and changes nothing', async () => {
      for (const route of await mutatingRoutes()) {
        const before = await effects(instance.runtime.db);
        for (const body of [undefined, {}, { name: 'n', description: 'd', action: 'start', files: [] }]) {
          const response = await instance.request({ method: route.method, url: route.url, body, idempotencyKey: null });
          const error = expectError(response, 400, 'validation_error');
          expect(error.error.details?.[0]?.field, `${route.method} ${route.url}`).toBe('Idempotency-Key');
        }
        expect(await effects(instance.runtime.db)).toEqual(before);
      }
    });

    it('is checked before the body, so an invalid body without a key still names the key', async () => {
      const response = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { unknown: 1 }, idempotencyKey: null });
      expect(expectError(response, 400, 'validation_error').error.details?.[0]?.field).toBe('Idempotency-Key');
    });

    it.each([
      ['too long', 'k'.repeat(256)],
      ['containing a space', 'a key'],
      ['non-ASCII', 'clé'],
    ])('refuses a key %s', async (_label, key) => {
      const response = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' }, headers: { 'idempotency-key': key } });
      expect(expectError(response, 400, 'validation_error').error.details?.[0]?.field).toBe('Idempotency-Key');
      expect(await countRows(instance.runtime.db, 'cases')).toBe(0);
    });

    it('is not needed on GET and DELETE', async () => {
      const caseId = await createCase(instance);
      expect((await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}` })).statusCode).toBe(200);
      expect((await instance.request({ method: 'DELETE', url: `/api/v1/cases/${caseId}` })).statusCode).toBe(204);
    });
  });

  it('replays the same status and body byte for byte for the same key and body, with no second effect', async () => {
    const first = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Replay me' }, idempotencyKey: 'create-1' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await effects(instance.runtime.db);
    expect(after.cases).toBe(1);

    const again = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Replay me' }, idempotencyKey: 'create-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.body).toBe(first.body);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await effects(instance.runtime.db)).toEqual(after);
  });

  it('treats the same fields in another order as the same body', async () => {
    const first = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n', description: 'd' }, idempotencyKey: 'order' });
    const again = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { description: 'd', name: 'n' }, idempotencyKey: 'order' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('replays an upload session and its completion without creating a second session or documents', async () => {
    const caseId = await createCase(instance);
    const pdf = minimalPdf();
    const create = { method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: { files: [{ name: 'a.pdf', size: pdf.length }] } } as const;
    const session = await instance.request({ ...create, idempotencyKey: 'session' });
    expect(session.statusCode).toBe(201);
    const replayedSession = await instance.request({ ...create, idempotencyKey: 'session' });
    expect(replayedSession.body).toBe(session.body);
    expect(await countRows(instance.runtime.db, 'upload_sessions')).toBe(1);

    const data = session.json<{ data: { id: string; files: { upload_url: string }[] } }>().data;
    const put = await instance.server.app.inject({
      method: 'PUT',
      url: new URL(data.files[0]?.upload_url ?? '').pathname,
      headers: { host: instance.host, 'content-type': 'application/pdf' },
      payload: pdf,
    });
    expect(put.statusCode).toBe(200);
    const complete = { method: 'POST', url: `/api/v1/upload-sessions/${data.id}/complete` } as const;
    const completed = await instance.request({ ...complete, idempotencyKey: 'complete' });
    expect(completed.statusCode).toBe(200);
    const before = await effects(instance.runtime.db);
    const replayed = await instance.request({ ...complete, idempotencyKey: 'complete' });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(completed.body);
    expect(await effects(instance.runtime.db)).toEqual(before);
    expect(before.documents).toBe(1);
  });

  it('answers 409 idempotency_key_reused for the same key with another body, URL or method, and changes nothing', async () => {
    const caseId = await createCase(instance);
    await instance.request({ method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { description: 'one' }, idempotencyKey: 'reuse' });
    const before = await effects(instance.runtime.db);
    const variants: ApiRequest[] = [
      { method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { description: 'two' } },
      { method: 'PATCH', url: `/api/v1/cases/${caseId}`, body: { description: 'one', priority: 'high' } },
      { method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'start' } },
      { method: 'POST', url: '/api/v1/cases', body: { description: 'one', name: 'x' } },
    ];
    for (const variant of variants) {
      expectError(await instance.request({ ...variant, idempotencyKey: 'reuse' }), 409, 'idempotency_key_reused');
    }
    expect(await effects(instance.runtime.db)).toEqual(before);
    const got = await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}` });
    expect(got.json<CaseBody>().data).toMatchObject({ description: 'one', status: 'open' });
  });

  describe('while the first request with a key is still running', () => {
    it('answers 409 conflict, and the key runs once the claim is released', async () => {
      const db = instance.runtime.db;
      const request = { method: 'POST', url: '/api/v1/cases', body: { name: 'Slow' } } as const;
      // Learn the fingerprint of this request from a finished one under another key.
      await instance.request({ ...request, idempotencyKey: 'probe' });
      const fingerprint = (await storedRow(instance, 'probe'))?.fingerprint ?? '';
      const apiKeyId = await apiKeyIdOf(db, instance.orgs[0]?.api_key ?? '');
      expect(await claimIdempotencyKey(db, { type: 'api_key', id: apiKeyId }, 'in-flight', fingerprint, new Date().toISOString())).toBe(true);

      const before = await effects(db);
      const response = await instance.request({ ...request, idempotencyKey: 'in-flight' });
      expectError(response, 409, 'conflict');
      expect(await effects(db)).toEqual(before);
      expect((await storedRow(instance, 'in-flight'))?.state).toBe('running');

      await releaseIdempotencyKey(db, { type: 'api_key', id: apiKeyId }, 'in-flight');
      const retried = await instance.request({ ...request, idempotencyKey: 'in-flight' });
      expect(retried.statusCode).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect((await storedRow(instance, 'in-flight'))?.state).toBe('done');
    });

    it('answers idempotency_key_reused, not conflict, when the running request had another body', async () => {
      const apiKeyId = await apiKeyIdOf(instance.runtime.db, instance.orgs[0]?.api_key ?? '');
      await claimIdempotencyKey(instance.runtime.db, { type: 'api_key', id: apiKeyId }, 'running-other', 'f'.repeat(64), new Date().toISOString());
      expectError(await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'x' }, idempotencyKey: 'running-other' }), 409, 'idempotency_key_reused');
    });

    it('lets exactly one of several concurrent requests with one key take effect', async () => {
      const request = { method: 'POST', url: '/api/v1/cases', body: { name: 'Race' }, idempotencyKey: 'race' } as const;
      const responses = await Promise.all(Array.from({ length: 8 }, () => instance.request(request)));
      const created = responses.filter((response) => response.statusCode === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const response of created) expect(response.body).toBe(created[0]?.body);
      for (const response of responses.filter((r) => r.statusCode !== 201)) expectError(response, 409, 'conflict');
      expect(await countRows(instance.runtime.db, 'cases')).toBe(1);
    });
  });

  it('stores a 4xx outcome and replays it, even after the state that caused it changed', async () => {
    const caseId = await createCase(instance);
    const submit = { method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'submit' } } as const;
    const refused = await instance.request({ ...submit, idempotencyKey: 'submit-too-early' });
    expectError(refused, 409, 'invalid_transition');
    expect((await storedRow(instance, 'submit-too-early'))).toMatchObject({ state: 'done', status_code: 409 });

    // Now submit would be allowed; the stored answer is still what the key gets.
    expect((await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/actions`, body: { action: 'start' } })).statusCode).toBe(200);
    const replayed = await instance.request({ ...submit, idempotencyKey: 'submit-too-early' });
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(refused.body);
    const got = await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}` });
    expect(got.json<CaseBody>().data.status).toBe('in_progress');
  });

  it('replays a 404 as well', async () => {
    const missing = { method: 'PATCH', url: '/api/v1/cases/987654', body: { description: 'x' }, idempotencyKey: 'missing' } as const;
    const first = await instance.request(missing);
    expectError(first, 404, 'resource_not_found');
    const again = await instance.request(missing);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('does not store a 5xx: the key is released and a retry runs and succeeds', async () => {
    const db = instance.runtime.db;
    // A failure the service does not expect, as a full disk or a bug would cause.
    if (onPostgres()) {
      await sql`CREATE FUNCTION simulate_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.name = 'Unlucky' THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$`.execute(db);
      await sql`CREATE TRIGGER simulate_failure BEFORE INSERT ON cases FOR EACH ROW EXECUTE FUNCTION simulate_failure()`.execute(db);
    } else {
      await sql`CREATE TEMP TRIGGER simulate_failure BEFORE INSERT ON cases WHEN NEW.name = 'Unlucky' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`.execute(db);
    }
    const request = { method: 'POST', url: '/api/v1/cases', body: { name: 'Unlucky' }, idempotencyKey: 'flaky' } as const;
    const failed = await instance.request(request);
    expectError(failed, 500, 'internal_error');
    expect(failed.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedRow(instance, 'flaky')).toBeUndefined();
    expect(await effects(db)).toMatchObject({ cases: 0, audit_log: 6, outbox_events: 0 });

    await (onPostgres() ? sql`DROP TRIGGER simulate_failure ON cases` : sql`DROP TRIGGER simulate_failure`).execute(db);
    const retried = await instance.request(request);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await countRows(db, 'cases')).toBe(1);
    const replayed = await instance.request(request);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(retried.body);
  });

  it('keeps keys per API key: the same key string from two API keys is independent', async () => {
    const firstKey = instance.orgs[0]?.api_key ?? '';
    const sibling = await issueSiblingKey(instance.runtime.db, firstKey);
    const otherOrg = instance.orgs[1]?.api_key ?? '';
    const one = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Shared' }, idempotencyKey: 'shared', key: firstKey });
    const two = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Shared' }, idempotencyKey: 'shared', key: sibling });
    const three = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Other body' }, idempotencyKey: 'shared', key: otherOrg });
    for (const response of [one, two, three]) {
      expect(response.statusCode).toBe(201);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
    const ids = [one, two, three].map((response) => response.json<CaseBody>().data.id);
    expect(new Set(ids).size).toBe(3);
    expect(await countRows(instance.runtime.db, 'cases')).toBe(3);
    // Each key still replays its own outcome.
    const replay = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Shared' }, idempotencyKey: 'shared', key: sibling });
    expect(replay.body).toBe(two.body);
  });

  describe('across a restart', () => {
    it('keeps stored outcomes: a replay after the restart has no second effect', async () => {
      const request = { method: 'POST', url: '/api/v1/cases', body: { name: 'Durable' }, idempotencyKey: 'durable' } as const;
      const first = await instance.request(request);
      expect(first.statusCode).toBe(201);
      instance = await restart(instance);
      const before = await effects(instance.runtime.db);
      const replayed = await instance.request(request);
      expect(replayed.statusCode).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toBe(first.body);
      expect(await effects(instance.runtime.db)).toEqual(before);
      expectError(await instance.request({ ...request, body: { name: 'Changed' } }), 409, 'idempotency_key_reused');
    });

    it('releases claims a dead process left running, so the retry runs', async () => {
      const request = { method: 'POST', url: '/api/v1/cases', body: { name: 'Orphaned' } } as const;
      await instance.request({ ...request, idempotencyKey: 'probe' });
      const fingerprint = (await storedRow(instance, 'probe'))?.fingerprint ?? '';
      const apiKeyId = await apiKeyIdOf(instance.runtime.db, instance.orgs[0]?.api_key ?? '');
      await claimIdempotencyKey(instance.runtime.db, { type: 'api_key', id: apiKeyId }, 'orphan', fingerprint, new Date().toISOString());
      expectError(await instance.request({ ...request, idempotencyKey: 'orphan' }), 409, 'conflict');

      instance = await restart(instance);
      const running = await instance.runtime.db.selectFrom('idempotency_keys').select('idempotency_key').where('state', '=', 'running').execute();
      expect(running).toEqual([]);
      expect((await storedRow(instance, 'probe'))?.state).toBe('done');
      const retried = await instance.request({ ...request, idempotencyKey: 'orphan' });
      expect(retried.statusCode).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await countRows(instance.runtime.db, 'cases')).toBe(2);
    });
  });
});

describe('Idempotency-Key retention', () => {
  it('defaults to 48 hours and cannot be configured below 24', () => {
    const dir = fs.mkdtempSync(`${process.env.TMPDIR ?? '/tmp'}/obscura-retention-`);
    try {
      expect(loadConfig(dir).idempotencyRetentionHours).toBe(48);
      expect(() => loadConfig(dir, { idempotencyRetentionHours: 23 })).toThrow(/idempotencyRetentionHours/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const hours of [24, 48]) {
    it(`runMaintenance removes records older than ${hours} h and keeps younger ones`, async () => {
      const clock = new ManualClock(new Date('2030-01-01T00:00:00.000Z'));
      const instance = await startInstance({ clock, config: { idempotencyRetentionHours: hours } });
      try {
        const create = (name: string, key: string) => instance.request({ method: 'POST', url: '/api/v1/cases', body: { name }, idempotencyKey: key });
        expect((await create('Old', 'old')).statusCode).toBe(201);
        clock.advanceHours(hours / 2);
        const young = await create('Young', 'young');

        clock.advanceHours(hours / 2 - 0.01); // the old record is just younger than the retention
        await runMaintenance(instance.runtime);
        expect(await storedRow(instance, 'old')).toBeDefined();

        clock.advanceHours(0.02); // now just older
        await runMaintenance(instance.runtime);
        expect(await storedRow(instance, 'old')).toBeUndefined();
        expect(await storedRow(instance, 'young')).toBeDefined();

        const replayedYoung = await create('Young', 'young');
        expect(replayedYoung.headers['idempotent-replayed']).toBe('true');
        expect(replayedYoung.body).toBe(young.body);
        // The forgotten key is free again: reusing it runs the request anew.
        const reusedOld = await create('Old', 'old');
        expect(reusedOld.statusCode).toBe(201);
        expect(reusedOld.headers['idempotent-replayed']).toBeUndefined();
        expect(await countRows(instance.runtime.db, 'cases')).toBe(3);
      } finally {
        await instance.close();
      }
    });
  }

  it('is applied at start-up too', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00.000Z'));
    let instance = await startInstance({ clock, config: { idempotencyRetentionHours: 24 } });
    try {
      await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'n' }, idempotencyKey: 'expiring' });
      clock.advanceHours(25);
      instance = await restart(instance, { idempotencyRetentionHours: 24 }, clock);
      expect(await storedRow(instance, 'expiring')).toBeUndefined();
    } finally {
      await instance.close();
    }
  });
});
