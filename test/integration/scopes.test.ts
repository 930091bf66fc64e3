import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case } from '../../main/common/schemas/cases.js';
import { Me } from '../../main/common/schemas/me.js';
import { UploadSession } from '../../main/common/schemas/documents.js';
import { ALL_SCOPES, type Scope } from '../../main/common/scopes.js';
import { revokeApiKey } from '../../main/db/queries/api-keys.js';
import { insertServiceAccount, setServiceAccountActive } from '../../main/db/queries/service-accounts.js';
import { issueApiKey, type IssuedKey } from '../../main/services/api-keys.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { dataOf, errorOf, keyOf, manualClock, orgId, pageOf, tableCounts } from '../helpers/integration-support.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Prepared {
  path: string;
  body?: unknown;
}

interface Row {
  method: Method;
  /** As the spec writes it. */
  path: string;
  scope: Scope;
  /** The status a permitted, well-formed request answers. */
  success: number;
  /** Makes fresh resources (with the full key) and fills the path in. */
  prepare: (fixtures: Fixtures) => Promise<Prepared>;
}

interface Fixtures {
  newCase(): Promise<string>;
  newClockedCase(): Promise<string>;
  newDocument(): Promise<string>;
  newSession(): Promise<string>;
}

/** The spec's "Cases and documents" table, one row per endpoint. */
const TABLE: Row[] = [
  { method: 'GET', path: '/cases', scope: 'cases:read', success: 200, prepare: async () => ({ path: '/cases' }) },
  { method: 'POST', path: '/cases', scope: 'cases:write', success: 201, prepare: async () => ({ path: '/cases', body: { name: 'Scoped' } }) },
  { method: 'GET', path: '/cases/{case_id}', scope: 'cases:read', success: 200, prepare: async (f) => ({ path: `/cases/${await f.newCase()}` }) },
  {
    method: 'PATCH',
    path: '/cases/{case_id}',
    scope: 'cases:write',
    success: 200,
    prepare: async (f) => ({ path: `/cases/${await f.newCase()}`, body: { description: 'changed' } }),
  },
  { method: 'DELETE', path: '/cases/{case_id}', scope: 'cases:write', success: 204, prepare: async (f) => ({ path: `/cases/${await f.newCase()}` }) },
  {
    method: 'POST',
    path: '/cases/{case_id}/actions',
    scope: 'cases:write',
    success: 200,
    prepare: async (f) => ({ path: `/cases/${await f.newCase()}/actions`, body: { action: 'start' } }),
  },
  { method: 'GET', path: '/cases/{case_id}/clock', scope: 'cases:read', success: 200, prepare: async (f) => ({ path: `/cases/${await f.newClockedCase()}/clock` }) },
  {
    method: 'POST',
    path: '/cases/{case_id}/clock/events',
    scope: 'cases:write',
    success: 201,
    prepare: async (f) => ({ path: `/cases/${await f.newClockedCase()}/clock/events`, body: { kind: 'extend', days: 5, reason: 'voluminous' } }),
  },
  { method: 'GET', path: '/cases/{case_id}/permissions', scope: 'cases:read', success: 200, prepare: async (f) => ({ path: `/cases/${await f.newCase()}/permissions` }) },
  { method: 'GET', path: '/clock-settings', scope: 'cases:read', success: 200, prepare: async () => ({ path: '/clock-settings' }) },
  { method: 'PATCH', path: '/clock-settings', scope: 'roles:write', success: 200, prepare: async () => ({ path: '/clock-settings', body: { time_limit_days: 20 } }) },
  {
    method: 'GET',
    path: '/cases/{case_id}/documents',
    scope: 'documents:read',
    success: 200,
    prepare: async (f) => ({ path: `/cases/${await f.newCase()}/documents` }),
  },
  {
    method: 'POST',
    path: '/cases/{case_id}/upload-sessions',
    scope: 'documents:write',
    success: 201,
    prepare: async (f) => ({ path: `/cases/${await f.newCase()}/upload-sessions`, body: { files: [{ name: 'a.pdf', size: 100 }] } }),
  },
  {
    method: 'POST',
    path: '/upload-sessions/{upload_session_id}/complete',
    scope: 'documents:write',
    success: 200,
    prepare: async (f) => ({ path: `/upload-sessions/${await f.newSession()}/complete` }),
  },
  { method: 'GET', path: '/documents/{document_id}', scope: 'documents:read', success: 200, prepare: async (f) => ({ path: `/documents/${await f.newDocument()}` }) },
  { method: 'GET', path: '/documents/{document_id}/intake', scope: 'documents:read', success: 200, prepare: async (f) => ({ path: `/documents/${await f.newDocument()}/intake` }) },
  { method: 'GET', path: '/documents/{document_id}/family', scope: 'documents:read', success: 200, prepare: async (f) => ({ path: `/documents/${await f.newDocument()}/family` }) },
  { method: 'GET', path: '/cases/{case_id}/intake', scope: 'documents:read', success: 200, prepare: async (f) => ({ path: `/cases/${await f.newCase()}/intake` }) },
  {
    method: 'PATCH',
    path: '/documents/{document_id}',
    scope: 'documents:write',
    success: 200,
    prepare: async (f) => ({ path: `/documents/${await f.newDocument()}`, body: { fileName: 'renamed.pdf' } }),
  },
  {
    method: 'DELETE',
    path: '/documents/{document_id}',
    scope: 'documents:write',
    success: 204,
    prepare: async (f) => ({ path: `/documents/${await f.newDocument()}` }),
  },
  {
    method: 'GET',
    path: '/documents/{document_id}/download-url',
    scope: 'documents:read',
    success: 200,
    prepare: async (f) => ({ path: `/documents/${await f.newDocument()}/download-url` }),
  },
  {
    // Issue 18; the fixture's PDF needs no password, so the allowed call is a 409 that changes nothing.
    method: 'POST',
    path: '/documents/{document_id}/password',
    scope: 'documents:write',
    success: 409,
    prepare: async (f) => ({ path: `/documents/${await f.newDocument()}/password`, body: { password: 'x' } }),
  },
];

const OpenApi = z.object({ paths: z.record(z.string(), z.record(z.string(), z.object({ tags: z.array(z.string()).optional() }).loose())) });

describe('scopes and authentication', () => {
  const clock = manualClock('2031-03-01T09:00:00.000Z');
  let instance: TestInstance;
  let serviceAccountId: number;

  beforeAll(async () => {
    instance = await startInstance({ clock, config: { rateLimits: { enabled: false } } });
    const account = await instance.runtime.db
      .selectFrom('service_accounts')
      .select('id')
      .where('organization_id', '=', orgId(instance))
      .executeTakeFirstOrThrow();
    serviceAccountId = account.id;
  });
  afterAll(() => instance.close());

  function issue(scopes: readonly Scope[], options: { expiresAt?: string | null; account?: number; name?: string } = {}): Promise<IssuedKey> {
    return issueApiKey(instance.runtime.db, {
      organizationId: orgId(instance),
      serviceAccountId: options.account ?? serviceAccountId,
      name: options.name ?? `key with ${scopes.length} scopes`,
      scopes,
      expiresAt: options.expiresAt ?? null,
      now: clock.now().toISOString(),
    });
  }

  const fixtures: Fixtures = {
    newCase: () => createCase(instance, 'Scope fixture'),
    newClockedCase: async () => {
      const response = await instance.request({ method: 'POST', url: '/api/v1/cases', body: { name: 'Clocked fixture', receivedDate: '2031-02-20' } });
      return (JSON.parse(response.body) as { data: { id: string } }).data.id;
    },
    newDocument: async () => {
      const [document] = await uploadDocuments(instance, await createCase(instance, 'Scope fixture'), [{ name: 'f.pdf', bytes: minimalPdf() }]);
      return document?.id ?? '';
    },
    newSession: async () => {
      const caseId = await createCase(instance, 'Scope fixture');
      return dataOf(await instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/upload-sessions`, body: {} }), UploadSession, 201).id;
    },
  };

  async function call(row: Row, key: string) {
    const prepared = await row.prepare(fixtures);
    return instance.request({ method: row.method, url: `/api/v1${prepared.path}`, key, ...(prepared.body !== undefined && { body: prepared.body }) });
  }

  describe('the endpoint table', () => {
    it('covers every cases and documents operation the server publishes', async () => {
      const doc = OpenApi.parse(dataOrRaw(await instance.request({ method: 'GET', url: '/api/v1/openapi.json' })));
      const published = Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.tags?.some((tag) => tag === 'cases' || tag === 'documents'))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      );
      expect(published.sort()).toEqual(TABLE.map((row) => `${row.method} ${row.path}`).sort());
    });

    it.each(TABLE)('$method $path: a key with only $scope is allowed', async (row) => {
      const key = await issue([row.scope]);
      const response = await call(row, key.plaintext);
      expect(response.statusCode).not.toBe(401);
      expect(response.statusCode).not.toBe(403);
      expect(response.statusCode, response.body).toBe(row.success);
    });

    it.each(TABLE)('$method $path: a key with every scope but $scope gets 403 permission_denied and changes nothing', async (row) => {
      const key = await issue(ALL_SCOPES.filter((scope) => scope !== row.scope));
      const prepared = await row.prepare(fixtures);
      const before = await tableCounts(instance);
      const response = await instance.request({
        method: row.method,
        url: `/api/v1${prepared.path}`,
        key: key.plaintext,
        ...(prepared.body !== undefined && { body: prepared.body }),
      });
      const error = errorOf(response, 403, 'permission_denied');
      expect(error.details).toEqual({ required_scopes: [row.scope] });
      expect(await tableCounts(instance)).toEqual(before);
    });

    it('a key without any scope may only ask who it is', async () => {
      const key = await issue([]);
      expect(dataOf(await instance.request({ method: 'GET', url: '/api/v1/me', key: key.plaintext }), Me).api_key.scopes).toEqual([]);
      errorOf(await instance.request({ method: 'GET', url: '/api/v1/cases', key: key.plaintext }), 403, 'permission_denied');
    });

    it('scope is checked before the body and the Idempotency-Key', async () => {
      const key = await issue(['cases:read']);
      const response = await instance.request({ method: 'POST', url: '/api/v1/cases', key: key.plaintext, body: {}, idempotencyKey: null });
      errorOf(response, 403, 'permission_denied');
    });
  });

  describe('authentication', () => {
    const me = (key: string | null, headers?: Record<string, string>) => instance.request({ method: 'GET', url: '/api/v1/me', key, ...(headers && { headers }) });

    it('a missing key → 401 authentication_failed, before anything else is looked at', async () => {
      errorOf(await me(null), 401, 'authentication_failed');
      errorOf(await instance.request({ method: 'GET', url: '/api/v1/cases/987654321', key: null }), 401, 'authentication_failed');
      errorOf(await instance.request({ method: 'POST', url: '/api/v1/cases', key: null, body: {}, idempotencyKey: null }), 401, 'authentication_failed');
      errorOf(await me(''), 401, 'authentication_failed');
    });

    it.each([
      ['plain text', 'hello'],
      ['a prefix only', 'obs_'],
      ['a bearer token', 'Bearer abc'],
      ['upper-case lookup id', `obs_ABCDEF012345_${randomBytes(32).toString('base64url')}`],
      ['a short secret', `obs_abcdef012345_${randomBytes(16).toString('base64url')}`],
      ['trailing characters', 'TRAILING'],
    ])('a malformed key (%s) → 401', async (_label, value) => {
      const key = value === 'TRAILING' ? `${(await issue(['cases:read'])).plaintext}x` : value;
      errorOf(await me(key), 401, 'authentication_failed');
    });

    it('an unknown key, and a known lookup id with the wrong secret → 401', async () => {
      errorOf(await me(`obs_${randomBytes(6).toString('hex')}_${randomBytes(32).toString('base64url')}`), 401, 'authentication_failed');
      const real = (await issue(['cases:read'])).plaintext;
      const forged = `${real.slice(0, 'obs_'.length + 12)}_${randomBytes(32).toString('base64url')}`;
      errorOf(await me(forged), 401, 'authentication_failed');
      dataOf(await me(real), Me);
    });

    it('a revoked key → 401', async () => {
      const key = await issue(['cases:read']);
      dataOf(await me(key.plaintext), Me);
      await revokeApiKey(instance.runtime.db, orgId(instance), key.id, clock.now().toISOString());
      errorOf(await me(key.plaintext), 401, 'authentication_failed');
      errorOf(await instance.request({ method: 'GET', url: '/api/v1/cases', key: key.plaintext }), 401, 'authentication_failed');
    });

    it('an expired key → 401, and it works until its expiry', async () => {
      const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
      const key = await issue(['cases:read'], { expiresAt });
      expect(dataOf(await me(key.plaintext), Me).api_key.expires_at).toBe(expiresAt);
      clock.advance(59_000);
      pageOf(await instance.request({ method: 'GET', url: '/api/v1/cases', key: key.plaintext }), Case);
      clock.advance(1_000);
      errorOf(await me(key.plaintext), 401, 'authentication_failed');
      const alreadyExpired = await issue(['cases:read'], { expiresAt: new Date(clock.now().getTime() - 1).toISOString() });
      errorOf(await me(alreadyExpired.plaintext), 401, 'authentication_failed');
    });

    it('a key whose service account is deactivated → 403 permission_denied; other accounts are unaffected', async () => {
      const now = clock.now().toISOString();
      const accountId = await insertServiceAccount(instance.runtime.db, {
        organization_id: orgId(instance),
        name: 'ingest-robot',
        description: 'deactivated in this test',
        max_scopes: JSON.stringify(ALL_SCOPES),
        active: 1,
        created_at: now,
        updated_at: now,
      });
      const key = await issue(['cases:read', 'cases:write'], { account: accountId });
      expect(dataOf(await me(key.plaintext), Me).service_account).toEqual({ id: String(accountId), name: 'ingest-robot' });

      await setServiceAccountActive(instance.runtime.db, orgId(instance), accountId, false, now);
      const before = await tableCounts(instance);
      errorOf(await me(key.plaintext), 403, 'permission_denied');
      errorOf(await instance.request({ method: 'POST', url: '/api/v1/cases', key: key.plaintext, body: { name: 'blocked' } }), 403, 'permission_denied');
      expect(await tableCounts(instance)).toEqual(before);
      dataOf(await me(keyOf(instance, 0)), Me);

      await setServiceAccountActive(instance.runtime.db, orgId(instance), accountId, true, now);
      dataOf(await me(key.plaintext), Me);
    });

    it('keys are stored hashed: the database never holds the secret', async () => {
      const key = await issue(['cases:read']);
      const secret = key.plaintext.split('_').slice(2).join('_');
      const row = await instance.runtime.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('GET /me', () => {
    it('shows the key, its scopes, service account and organization, never the secret', async () => {
      const scopes: Scope[] = ['documents:read', 'cases:read'];
      const expiresAt = new Date(clock.now().getTime() + 86_400_000).toISOString();
      const key = await issue(scopes, { name: 'reporting key', expiresAt });
      const response = await instance.request({ method: 'GET', url: '/api/v1/me', key: key.plaintext });
      const me = dataOf(response, Me);
      const lookupId = key.plaintext.split('_')[1] ?? '';
      expect(me).toEqual({
        api_key: {
          id: String(key.id),
          name: 'reporting key',
          prefix: `obs_${lookupId}`,
          scopes: ['cases:read', 'documents:read'],
          expires_at: expiresAt,
          created_at: clock.now().toISOString(),
        },
        service_account: { id: String(serviceAccountId), name: 'default-integration' },
        organization: { id: String(orgId(instance)), name: 'Org 1' },
      });
      const secret = key.plaintext.slice(`obs_${lookupId}_`.length);
      expect(secret).toHaveLength(43);
      expect(response.body).not.toContain(secret);
      expect(JSON.stringify(response.headers)).not.toContain(secret);
    });

    it("shows the other organization for the other organization's key", async () => {
      const me = dataOf(await instance.request({ method: 'GET', url: '/api/v1/me', key: keyOf(instance, 1) }), Me);
      expect(me.organization).toEqual({ id: instance.orgs[1]?.organization_id, name: 'Org 2' });
      expect(me.api_key.scopes).toEqual([...ALL_SCOPES]);
    });
  });
});

/** openapi.json is the document itself, not wrapped in an envelope. */
function dataOrRaw(response: { statusCode: number; body: string }): unknown {
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as unknown;
}
