import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASSIFICATION_TYPES, LAYERS } from '../../main/common/redaction-catalog.js';
import {
  bodyOf,
  createUserAndSignIn,
  pdfItem,
  signInAdmin,
  tinyPng,
  uploadOne,
  type AppClient,
  type AppError,
  type AppRecord,
  type ListResult,
  type SaveResult,
} from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TRIANGLE = [
  { x: 10, y: 20 },
  { x: 110, y: 20 },
  { x: 60, y: 60 },
];

interface LayerResult {
  success: boolean;
  layer: string;
  version_id: string | null;
  version: number;
  redactions: AppRecord[];
  count: number;
}

interface VersionList {
  layer: string;
  versions: { version: number; version_id: string; created_by: string; origin: string; summary: { created: string[]; updated: string[]; deleted: string[]; count: number } }[];
}

interface VersionSnapshot {
  layer: string;
  version: number;
  version_id: string;
  redactions: AppRecord[];
  count: number;
}

interface ItemResult {
  redaction_id: string;
  version_id: string | null;
  success: boolean;
  message: string;
}

interface V1Redaction {
  id: string;
  document_id: string;
  redaction_id: string;
  kind: string;
  layer: string;
  exemption: string;
  reason: string | null;
  classification_type: string | null;
  state: string;
  pending_reason: Record<string, unknown> | null;
  coordinates: { page: number; units: string; box: { x1: number; y1: number; x2: number; y2: number }; points: { x: number; y: number }[] };
  version_id: string;
}

describe('application redactions API', () => {
  let instance: TestInstance;
  let admin: AppClient;
  let clerk: AppClient;

  beforeAll(async () => {
    // Many small uploads through the integration API: its per-key rate limit is not under test here.
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    admin = await signInAdmin(instance);
    clerk = await createUserAndSignIn(instance);
  });
  afterAll(() => instance.close());

  const newPdf = () => uploadOne(instance, { name: 'doc.pdf', bytes: minimalPdf() });
  const newPng = () => uploadOne(instance, { name: 'scan.png', bytes: tinyPng() });

  async function save(docId: string, redactions: unknown, versionId?: string | null, client: AppClient = admin) {
    return client.request('POST', `/api/redactions/${docId}`, versionId === undefined ? { redactions } : { redactions, versionInfo: { versionId } });
  }

  async function saveOk(docId: string, redactions: unknown, versionId?: string | null, client: AppClient = admin): Promise<SaveResult> {
    const response = await save(docId, redactions, versionId, client);
    expect(response.statusCode, response.body).toBe(201);
    return bodyOf<SaveResult>(response);
  }

  async function list(docId: string, query = '', client: AppClient = admin): Promise<ListResult> {
    const response = await client.request('GET', `/api/redactions/${docId}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return bodyOf<ListResult>(response);
  }

  async function expect400(docId: string, redactions: unknown, fieldPattern?: RegExp): Promise<AppError> {
    const response = await save(docId, redactions);
    expect(response.statusCode, response.body).toBe(400);
    const body = bodyOf<AppError>(response);
    expect(body.code).toBe('validation_error');
    expect(typeof body.error).toBe('string');
    if (fieldPattern) expect(body.details?.some((detail) => fieldPattern.test(detail.field)), JSON.stringify(body.details)).toBe(true);
    return body;
  }

  async function v1Redactions(docId: string): Promise<V1Redaction[]> {
    const response = await instance.request({ method: 'GET', url: `/api/v1/documents/${docId}/redactions?limit=100` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: V1Redaction[] }>().data;
  }

  describe('Save rule 1: redactions must be a non-empty array', () => {
    let docId: string;
    beforeAll(async () => {
      docId = await newPdf();
    });

    it('an empty array → 400', async () => {
      await expect400(docId, [], /^redactions$/);
    });

    it('missing redactions (and an empty body) → 400', async () => {
      const missing = await admin.request('POST', `/api/redactions/${docId}`, { versionInfo: { versionId: null } });
      expect(missing.statusCode).toBe(400);
      expect(bodyOf<AppError>(missing).details?.[0]?.field).toBe('redactions');
      const empty = await admin.request('POST', `/api/redactions/${docId}`);
      expect(empty.statusCode).toBe(400);
    });

    it('a non-array redactions (object, string, null) → 400', async () => {
      await expect400(docId, pdfItem(), /^redactions$/);
      await expect400(docId, 'B6', /^redactions$/);
      await expect400(docId, null, /^redactions$/);
      expect((await list(docId)).count).toBe(0);
    });
  });

  describe('Save rule 2: one layer per save', () => {
    it('items mixing layers → 400 and nothing is stored', async () => {
      const docId = await newPdf();
      const body = await expect400(docId, [pdfItem('B6'), pdfItem('B5')], /^redactions$/);
      expect(body.message).toMatch(/layer/);
      expect((await list(docId)).count).toBe(0);
    });
  });

  describe('Save rule 3: invalid coordinates, layer or classification', () => {
    let docId: string;
    beforeAll(async () => {
      docId = await newPdf();
    });

    it('coordinates given as strings → 400', async () => {
      await expect400(docId, [pdfItem('B6', { pdf_x1: '10' })], /pdf_x1$/);
      await expect400(docId, [pdfItem('B6', { pdf_y2: 'Infinity' })], /pdf_y2$/);
    });

    it('null or missing coordinates → 400', async () => {
      await expect400(docId, [pdfItem('B6', { pdf_x2: null })], /pdf_x2$/);
      const item = pdfItem('B6');
      delete item.pdf_y1;
      await expect400(docId, [item], /pdf_y1$/);
    });

    it('x2 <= x1 → 400', async () => {
      await expect400(docId, [pdfItem('B6', { pdf_x1: 50, pdf_x2: 50 })], /x2$/);
      await expect400(docId, [pdfItem('B6', { pdf_x1: 60, pdf_x2: 50 })], /x2$/);
    });

    it('y2 <= y1 → 400', async () => {
      await expect400(docId, [pdfItem('B6', { pdf_y1: 60, pdf_y2: 60 })], /y2$/);
      await expect400(docId, [pdfItem('B6', { pdf_y1: 70, pdf_y2: 60 })], /y2$/);
    });

    it('an invalid layer → 400', async () => {
      await expect400(docId, [pdfItem('B8')], /layer$/);
      await expect400(docId, [pdfItem('b6')], /layer$/);
      await expect400(docId, [pdfItem('B6', { layer: undefined })], /layer$/);
    });

    it('B1 without classification_type, or with one outside the allowed values → 400', async () => {
      await expect400(docId, [pdfItem('B1', { classification_type: null })], /classification_type$/);
      const missing = pdfItem('B1');
      delete missing.classification_type;
      await expect400(docId, [missing], /classification_type$/);
      await expect400(docId, [pdfItem('B1', { classification_type: 'ultra_secret' })], /classification_type$/);
      await expect400(docId, [pdfItem('B1', { classification_type: 'SECRET' })], /classification_type$/);
    });

    it('a classification_type on a layer other than B1 → 400', async () => {
      await expect400(docId, [pdfItem('B6', { classification_type: 'secret' })], /classification_type$/);
    });

    it('each allowed classification is accepted on B1', async () => {
      let versionId: string | null = null;
      for (const classification of CLASSIFICATION_TYPES) {
        const saved = await saveOk(docId, [pdfItem('B1', { classification_type: classification })], versionId);
        versionId = saved.version_id;
      }
      const b1 = await list(docId, '?layers=B1');
      expect(b1.redactions.map((record) => record.classification_type).sort()).toEqual([...CLASSIFICATION_TYPES].sort());
    });

    it('rejected saves stored nothing in the other layers', async () => {
      expect((await list(docId, '?layers=B6')).count).toBe(0);
    });
  });

  describe('Save rule 4: PDF item rules', () => {
    let docId: string;
    beforeAll(async () => {
      docId = await newPdf();
    });

    it('page_number < 1 (and non-integer) → 400', async () => {
      await expect400(docId, [pdfItem('B6', { page_number: 0 })], /page_number$/);
      await expect400(docId, [pdfItem('B6', { page_number: -3 })], /page_number$/);
      await expect400(docId, [pdfItem('B6', { page_number: 1.5 })], /page_number$/);
    });

    it.each(['polygon', 'lasso', 'freehand'])('%s with fewer than 3 points → 400, with 3 → 201', async (kind) => {
      await expect400(docId, [pdfItem('B6', { redaction_type: kind, pdf_polygon_points: TRIANGLE.slice(0, 2) })], /points$/);
      await expect400(docId, [pdfItem('B6', { redaction_type: kind, pdf_polygon_points: [] })], /points$/);
      const latest = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`)).version_id;
      const item = pdfItem('B6', { redaction_type: kind, pdf_polygon_points: TRIANGLE });
      await saveOk(docId, [item], latest);
      const stored = (await list(docId)).redactions.find((record) => record.redaction_id === item.redaction_id);
      expect(stored).toMatchObject({ redaction_type: kind, pdf_polygon_points: TRIANGLE });
    });

    it('an unknown redaction_type → 400; full_page is a tool, not a stored kind', async () => {
      await expect400(docId, [pdfItem('B6', { redaction_type: 'circle' })], /redaction_type$/);
      await expect400(docId, [pdfItem('B6', { redaction_type: 'full_page' })], /redaction_type$/);
    });

    it('the same redaction_id twice in one save → 400', async () => {
      const item = pdfItem('B2');
      await expect400(docId, [item, { ...item }], /redaction_id$/);
    });

    it('every problem of a save is reported at once', async () => {
      const body = await expect400(docId, [pdfItem('B6', { page_number: 0 }), pdfItem('B6', { pdf_x2: 0 })]);
      const fields = body.details?.map((detail) => detail.field) ?? [];
      expect(fields).toContain('redactions.0.page_number');
      expect(fields).toContain('redactions.1.x2');
    });
  });

  describe('Save rule 5: a save merges with the previous version of the layer', () => {
    it('the list, the layer and the new version hold the earlier boxes and the saved ones', async () => {
      const docId = await newPdf();
      const first = pdfItem('B6');
      const second = pdfItem('B6', { pdf_x1: 200, pdf_x2: 300 });
      const v1 = await saveOk(docId, [first]);
      const v2 = await saveOk(docId, [second], v1.version_id);
      expect(v2.count).toBe(1);
      const all = await list(docId);
      expect(all.redactions.map((record) => record.redaction_id).sort()).toEqual([first.redaction_id, second.redaction_id].sort());
      const layer = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      expect(layer.version_id).toBe(v2.version_id);
      expect(layer.version).toBe(2);
      expect(layer.count).toBe(2);
      const snapshot = bodyOf<VersionSnapshot>(await admin.request('GET', `/api/redactions/${docId}/layer/B6/versions/${v2.version_id}`));
      expect(snapshot.redactions.map((record) => record.redaction_id).sort()).toEqual([first.redaction_id, second.redaction_id].sort());
      // Re-saving an existing redaction_id updates it in place instead of duplicating it.
      const v3 = await saveOk(docId, [{ ...first, pdf_x2: 150, redaction_reason: 'moved' }], v2.version_id);
      const after = await list(docId);
      expect(after.count).toBe(2);
      expect(after.redactions.find((record) => record.redaction_id === first.redaction_id)).toMatchObject({ pdf_x2: 150, redaction_reason: 'moved', version_id: v3.version_id });
    });
  });

  describe('Save rule 6: staged (pending) redactions survive saves from the UI', () => {
    it('staged boxes from the integration API stay pending through an app save of other boxes, then review decisions settle them', async () => {
      const docId = await newPdf();
      const created = await instance.request({
        method: 'POST',
        url: `/api/v1/documents/${docId}/redactions`,
        body: {
          redactions: [
            { kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: { x1: 1, y1: 2, x2: 30, y2: 40 } }, state: 'pending', pending_reason: { detector: 'ssn', score: 0.97 } },
            { kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: { x1: 5, y1: 6, x2: 50, y2: 60 } }, state: 'pending', pending_reason: { detector: 'email' } },
          ],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const [ssn, email] = created.json<{ data: { redactions: V1Redaction[] } }>().data.redactions as [V1Redaction, V1Redaction];
      expect(ssn.state).toBe('pending');

      const before = await list(docId);
      expect(before.redactions).toHaveLength(2);
      expect(before.redactions.find((record) => record.redaction_id === ssn.redaction_id)).toMatchObject({ state: 'pending', pending_reason: { detector: 'ssn', score: 0.97 } });

      // The client leaves staged boxes out and saves only its own change.
      const layer = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      const drawn = pdfItem('B6', { pdf_x1: 300, pdf_x2: 400 });
      await saveOk(docId, [drawn], layer.version_id);
      const after = await list(docId);
      expect(after.count).toBe(3);
      expect(after.redactions.find((record) => record.redaction_id === ssn.redaction_id)).toMatchObject({ state: 'pending', pending_reason: { detector: 'ssn', score: 0.97 }, pdf_x2: 30 });
      expect(after.redactions.find((record) => record.redaction_id === email.redaction_id)).toMatchObject({ state: 'pending' });
      expect(after.redactions.find((record) => record.redaction_id === drawn.redaction_id)).toMatchObject({ state: 'accepted', pending_reason: null });

      // A later app edit of a staged box keeps it staged: only review decides.
      const latest = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      const staged = after.redactions.find((record) => record.redaction_id === email.redaction_id)!;
      await saveOk(docId, [{ ...staged, pdf_x2: 55 }], latest.version_id);
      expect((await list(docId)).redactions.find((record) => record.redaction_id === email.redaction_id)).toMatchObject({ state: 'pending', pdf_x2: 55 });

      const decided = await instance.request({
        method: 'POST',
        url: `/api/v1/documents/${docId}/review-decisions`,
        body: { decisions: [{ redaction_id: ssn.id, decision: 'accept' }, { redaction_id: email.id, decision: 'reject', reason: 'not an email address' }] },
      });
      expect(decided.statusCode, decided.body).toBe(201);
      const settled = await list(docId);
      expect(settled.redactions.find((record) => record.redaction_id === ssn.redaction_id)?.state).toBe('accepted');
      expect(settled.redactions.find((record) => record.redaction_id === email.redaction_id)?.state).toBe('rejected');
    });
  });

  describe('Save rule 6: a suggestion staged after the UI loaded the layer is never overwritten by its save', () => {
    it('the stale save answers 409 and the staged box stays', async () => {
      const docId = await newPdf();
      const loaded = await saveOk(docId, [pdfItem('B6')]);
      const staged = await instance.request({
        method: 'POST',
        url: `/api/v1/documents/${docId}/redactions`,
        body: { redactions: [{ kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: { x1: 1, y1: 1, x2: 9, y2: 9 } }, state: 'pending', pending_reason: { detector: 'phone' } }] },
      });
      expect(staged.statusCode).toBe(201);
      const stale = await save(docId, [pdfItem('B6')], loaded.version_id);
      expect(stale.statusCode).toBe(409);
      expect(bodyOf<AppError>(stale).currentVersion?.version).toBe(2);
      const records = (await list(docId)).redactions;
      expect(records).toHaveLength(2);
      expect(records.filter((record) => record.state === 'pending')).toHaveLength(1);
    });
  });

  describe('Errors table', () => {
    it('404: an unknown docId', async () => {
      const response = await save('987654321', [pdfItem()]);
      expect(response.statusCode).toBe(404);
      expect(bodyOf<AppError>(response).code).toBe('resource_not_found');
      expect((await admin.request('GET', '/api/redactions/987654321')).statusCode).toBe(404);
    });

    it("404: another organization's document (save, list, layer, clear)", async () => {
      const foreignDoc = await uploadOne(instance, { name: 'theirs.pdf', bytes: minimalPdf() }, 1);
      const theirAdmin = await signInAdmin(instance, 1);
      await saveOk(foreignDoc, [pdfItem()], undefined, theirAdmin);
      expect((await save(foreignDoc, [pdfItem()])).statusCode).toBe(404);
      expect((await admin.request('GET', `/api/redactions/${foreignDoc}`)).statusCode).toBe(404);
      expect((await admin.request('GET', `/api/redactions/${foreignDoc}/layer/B6`)).statusCode).toBe(404);
      expect((await admin.request('DELETE', `/api/redactions/${foreignDoc}`)).statusCode).toBe(404);
      // Their boxes cannot be reached by id either.
      const theirs = (await list(foreignDoc, '', theirAdmin)).redactions[0]!;
      expect((await admin.request('PUT', `/api/redactions/box/${theirs.redaction_id}`, { redaction_reason: 'x' })).statusCode).toBe(404);
      expect((await admin.request('DELETE', `/api/redactions/box/${theirs.redaction_id}`)).statusCode).toBe(404);
      expect((await list(foreignDoc, '', theirAdmin)).redactions[0]).toMatchObject({ redaction_id: theirs.redaction_id, redaction_reason: null });
    });

    it('409: versionInfo.versionId is not the latest; the body carries currentVersion', async () => {
      const docId = await newPdf();
      const v1 = await saveOk(docId, [pdfItem()]);
      const v2 = await saveOk(docId, [pdfItem()], v1.version_id);
      const stale = await save(docId, [pdfItem()], v1.version_id);
      expect(stale.statusCode).toBe(409);
      const body = bodyOf<AppError>(stale);
      expect(body.code).toBe('conflict');
      expect(body.currentVersion).toEqual({ version_id: v2.version_id, version: 2, layer: 'B6' });
      // Omitting versionInfo once the layer has versions is also a conflict.
      const omitted = await save(docId, [pdfItem()]);
      expect(omitted.statusCode).toBe(409);
      expect(bodyOf<AppError>(omitted).currentVersion?.version_id).toBe(v2.version_id);
      const unknown = await save(docId, [pdfItem()], randomUUID());
      expect(unknown.statusCode).toBe(409);
      expect((await list(docId)).count).toBe(2);
    });

    it('423: another user holds the layer lock; the body carries locked_by and expires_at', async () => {
      const docId = await newPdf();
      const lock = await clerk.request('POST', `/api/redactions/${docId}/layer/B7/lock`);
      expect(lock.statusCode).toBe(200);
      const clerkName = bodyOf<{ user: { username: string } }>(await clerk.request('GET', '/api/auth/session')).user.username;
      const blocked = await save(docId, [pdfItem('B7')], null);
      expect(blocked.statusCode).toBe(423);
      const body = bodyOf<AppError>(blocked);
      expect(body.code).toBe('locked');
      expect(body.locked_by).toBe(clerkName);
      expect(Date.parse(body.expires_at ?? '')).toBeGreaterThan(Date.now());
      // Another layer of the same document is free.
      await saveOk(docId, [pdfItem('B6')]);
      expect((await clerk.request('DELETE', `/api/redactions/${docId}/layer/B7/lock`)).statusCode).toBe(200);
      await saveOk(docId, [pdfItem('B7')], null);
    });

    it('400: a versionInfo that is not an object, or a versionId that is neither a string nor null', async () => {
      const docId = await newPdf();
      for (const versionInfo of [{ versionId: 5 }, { versionId: { id: 'x' } }, 'v1', 7]) {
        const response = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfItem()], versionInfo });
        expect(response.statusCode, JSON.stringify(versionInfo)).toBe(400);
        expect(bodyOf<AppError>(response).details?.[0]?.field).toMatch(/^versionInfo/);
      }
      // versionInfo: null and { versionId: null } both mean "first save".
      const first = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfItem()], versionInfo: null });
      expect(first.statusCode).toBe(201);
      expect((await list(docId)).count).toBe(1);
    });

    it('400: an invalid layers query; an invalid layer in the path', async () => {
      const docId = await newPdf();
      const response = await admin.request('GET', `/api/redactions/${docId}?layers=B1,B9`);
      expect(response.statusCode).toBe(400);
      expect(bodyOf<AppError>(response).details?.[0]?.field).toBe('layers');
      expect((await admin.request('GET', `/api/redactions/${docId}?layers=B1,,B6`)).statusCode).toBe(400);
      expect((await admin.request('GET', `/api/redactions/${docId}/layer/B0`)).statusCode).toBe(400);
      expect((await admin.request('GET', `/api/redactions/${docId}/layer/X/versions`)).statusCode).toBe(400);
    });

    // A docId that is not a positive integer names no document: 404 like an unknown one (docs/api.md).
    it('404: a docId that is not a positive integer', async () => {
      expect((await admin.request('GET', '/api/redactions/abc')).statusCode).toBe(404);
      expect((await save('0', [pdfItem()])).statusCode).toBe(404);
    });
  });

  describe('save responses, versions and reads', () => {
    let docId: string;
    beforeAll(async () => {
      docId = await newPdf();
    });

    it('answers success, message "Saved N redaction(s)", count, version_id, version and layer', async () => {
      const response = await save(docId, [pdfItem('B6'), pdfItem('B6'), pdfItem('B6')]);
      expect(response.statusCode).toBe(201);
      const body = bodyOf<SaveResult>(response);
      expect(body).toMatchObject({ success: true, message: 'Saved 3 redaction(s)', count: 3, version: 1, layer: 'B6' });
      expect(body.version_id).toMatch(UUID);
    });

    it('records an audit row and a redactions.changed event for a save, naming the user', async () => {
      const auditedDoc = await newPdf();
      const saved = await saveOk(auditedDoc, [pdfItem('B2')], null);
      const db = instance.runtime.db;
      const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'redactions.write').where('resource_id', '=', auditedDoc).execute();
      const row = audit.find((candidate) => (JSON.parse(candidate.details ?? '{}') as { version_id?: string }).version_id === saved.version_id);
      expect(row).toMatchObject({ actor_type: 'user', actor_id: admin.userId, resource_type: 'document' });
      const events = await db.selectFrom('outbox_events').selectAll().where('type', '=', 'redactions.changed').execute();
      const event = events.find((candidate) => (JSON.parse(candidate.payload) as { version_id?: string }).version_id === saved.version_id);
      expect(event).toBeDefined();
      expect(JSON.parse(event!.payload)).toMatchObject({ document_id: auditedDoc, layer: 'B2', version: 1, origin: 'app' });
    });

    it('counts versions per layer independently', async () => {
      const b6 = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      const b6v2 = await saveOk(docId, [pdfItem('B6')], b6.version_id);
      expect(b6v2.version).toBe(2);
      const b5v1 = await saveOk(docId, [pdfItem('B5')], null);
      expect(b5v1.version).toBe(1);
      const b6v3 = await saveOk(docId, [pdfItem('B6')], b6v2.version_id);
      expect(b6v3.version).toBe(3);
      const b5v2 = await saveOk(docId, [pdfItem('B5')], b5v1.version_id);
      expect(b5v2.version).toBe(2);
      expect(new Set([b6v2.version_id, b5v1.version_id, b6v3.version_id, b5v2.version_id]).size).toBe(4);
      const all = await list(docId);
      expect(all.version_ids.sort()).toEqual([b6v3.version_id, b5v2.version_id].sort());
      expect(all.allowedLayers).toEqual([...LAYERS]);
    });

    it('GET …/layer/{layer} returns the latest version with its boxes; an untouched layer has none', async () => {
      const b5 = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B5`));
      expect(b5).toMatchObject({ success: true, layer: 'B5', version: 2, count: 2 });
      expect(b5.version_id).toMatch(UUID);
      expect(b5.redactions.every((record) => record.layer === 'B5')).toBe(true);
      const lower = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/b5`));
      expect(lower.version_id).toBe(b5.version_id);
      const b3 = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B3`));
      expect(b3).toMatchObject({ version_id: null, version: 0, count: 0, redactions: [] });
    });

    it('GET ?layers=B1,B6 returns only those layers', async () => {
      await saveOk(docId, [pdfItem('B1')], null);
      const all = await list(docId);
      expect(new Set(all.redactions.map((record) => record.layer))).toEqual(new Set(['B1', 'B5', 'B6']));
      const filtered = await list(docId, '?layers=B1,B6');
      expect(filtered.count).toBe(all.redactions.filter((record) => record.layer !== 'B5').length);
      expect(new Set(filtered.redactions.map((record) => record.layer))).toEqual(new Set(['B1', 'B6']));
      expect(filtered.version_ids).toHaveLength(2);
    });

    it('list records carry the stored-record fields', async () => {
      const record = (await list(docId, '?layers=B1')).redactions[0]!;
      expect(record).toMatchObject({ record_type: 'pdf', doc_id: Number(docId), page_number: 1, redaction_type: 'rectangle', layer: 'B1', exemption: '(b)(1)', classification_type: 'secret', state: 'accepted' });
      expect(record._id).toMatch(/^\d+$/);
      expect(record.created_by).toBe(`user:${admin.userId}`);
      expect(typeof record.created_at).toBe('string');
    });

    it('version history: listed in order and each version is an immutable snapshot', async () => {
      const docWithHistory = await newPdf();
      const a = pdfItem('B4', { redaction_reason: 'first' });
      const b = pdfItem('B4', { pdf_x1: 200, pdf_x2: 250 });
      const v1 = await saveOk(docWithHistory, [a]);
      const v2 = await saveOk(docWithHistory, [b], v1.version_id);
      const v3 = await saveOk(docWithHistory, [{ ...a, redaction_reason: 'changed', pdf_x2: 99 }], v2.version_id);
      const del = await admin.request('DELETE', `/api/redactions/box/pdf-redaction-${b.redaction_id}`);
      expect(del.statusCode).toBe(200);

      const versions = bodyOf<VersionList>(await admin.request('GET', `/api/redactions/${docWithHistory}/layer/B4/versions`));
      expect(versions.versions.map((version) => version.version)).toEqual([1, 2, 3, 4]);
      expect(versions.versions.slice(0, 3).map((version) => version.version_id)).toEqual([v1.version_id, v2.version_id, v3.version_id]);
      expect(versions.versions[3]?.summary).toMatchObject({ deleted: [b.redaction_id], count: 1 });

      const snapshot = async (versionId: string) =>
        bodyOf<VersionSnapshot>(await admin.request('GET', `/api/redactions/${docWithHistory}/layer/B4/versions/${versionId}`));
      const s1 = await snapshot(v1.version_id);
      expect(s1).toMatchObject({ version: 1, count: 1 });
      expect(s1.redactions[0]).toMatchObject({ redaction_id: a.redaction_id, redaction_reason: 'first', pdf_x2: 110 });
      const s2 = await snapshot(v2.version_id);
      expect(s2.redactions.map((record) => record.redaction_id).sort()).toEqual([a.redaction_id, b.redaction_id].sort());
      expect(s2.redactions.find((record) => record.redaction_id === a.redaction_id)?.redaction_reason).toBe('first');
      const s3 = await snapshot(v3.version_id);
      expect(s3.redactions.find((record) => record.redaction_id === a.redaction_id)).toMatchObject({ redaction_reason: 'changed', pdf_x2: 99 });
      const s4 = await snapshot(versions.versions[3]!.version_id);
      expect(s4.redactions.map((record) => record.redaction_id)).toEqual([a.redaction_id]);

      const missing = await admin.request('GET', `/api/redactions/${docWithHistory}/layer/B4/versions/${randomUUID()}`);
      expect(missing.statusCode).toBe(404);
      // A version id of another layer is not a version of this one.
      expect((await admin.request('GET', `/api/redactions/${docWithHistory}/layer/B6/versions/${v1.version_id}`)).statusCode).toBe(404);
    });
  });

  describe('image documents', () => {
    let docId: string;
    beforeAll(async () => {
      docId = await newPng();
    });

    it('accept an item with image_x1..image_y2', async () => {
      const id = randomUUID();
      const saved = await saveOk(docId, [{ redaction_id: id, layer: 'B6', image_x1: 1, image_y1: 2, image_x2: 30, image_y2: 40, redaction_type: 'rectangle', page_number: 1 }]);
      expect(saved.layer).toBe('B6');
      const record = (await list(docId)).redactions.find((candidate) => candidate.redaction_id === id);
      expect(record).toMatchObject({ record_type: 'image', image_x1: 1, image_y1: 2, image_x2: 30, image_y2: 40, page_number: 1, redaction_type: 'rectangle' });
      expect(record?.pdf_x1).toBeUndefined();
    });

    it('derive image_x2/image_y2 from x/y + width/height and from x/y + w/h; type omitted → rectangle, page omitted → 1', async () => {
      const latest = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`)).version_id;
      const long = randomUUID();
      const short = randomUUID();
      await saveOk(docId, [
        { redaction_id: long, layer: 'B6', x: 5, y: 7, width: 20, height: 10 },
        { redaction_id: short, layer: 'B6', x: 100, y: 50, w: 0.5, h: 25 },
      ], latest);
      const records = (await list(docId)).redactions;
      expect(records.find((record) => record.redaction_id === long)).toMatchObject({ image_x1: 5, image_y1: 7, image_x2: 25, image_y2: 17, redaction_type: 'rectangle', page_number: 1 });
      expect(records.find((record) => record.redaction_id === short)).toMatchObject({ image_x1: 100, image_y1: 50, image_x2: 100.5, image_y2: 75, redaction_type: 'rectangle', page_number: 1 });
    });

    it('accept `type` for the kind, with polygon points', async () => {
      const latest = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`)).version_id;
      const id = randomUUID();
      await saveOk(docId, [{ redaction_id: id, layer: 'B6', type: 'lasso', x: 10, y: 20, w: 100, h: 40, image_polygon_points: TRIANGLE }], latest);
      expect((await list(docId)).redactions.find((record) => record.redaction_id === id)).toMatchObject({ redaction_type: 'lasso', image_polygon_points: TRIANGLE });
      await expect400(docId, [{ redaction_id: randomUUID(), layer: 'B6', type: 'polygon', x: 10, y: 20, w: 100, h: 40, image_polygon_points: TRIANGLE.slice(0, 2) }], /points$/);
    });

    it('reject PDF-only items, and incomplete or empty boxes', async () => {
      await expect400(docId, [pdfItem('B6')]);
      await expect400(docId, [{ redaction_id: randomUUID(), layer: 'B6', x: 1, y: 1, width: 10 }]);
      await expect400(docId, [{ redaction_id: randomUUID(), layer: 'B6', x: 1, y: 1, w: 0, h: 10 }], /x2$/);
      await expect400(docId, [{ redaction_id: randomUUID(), layer: 'B6', image_x1: 'a', image_y1: 1, image_x2: 5, image_y2: 5 }], /image_x1$/);
      await expect400(docId, [{ redaction_id: randomUUID(), layer: 'B1', x: 1, y: 1, w: 5, h: 5 }], /classification_type$/);
    });

    it('PUT on an image box accepts the x/y + w|h, type and polygon_points spellings', async () => {
      const latest = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`)).version_id;
      const id = randomUUID();
      await saveOk(docId, [{ redaction_id: id, layer: 'B6', x: 1, y: 1, w: 10, h: 10 }], latest);
      const moved = await admin.request('PUT', `/api/redactions/box/image-redaction-${id}`, { x: 50, y: 60 });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(bodyOf<{ redaction: AppRecord }>(moved).redaction).toMatchObject({ image_x1: 50, image_y1: 60, image_x2: 60, image_y2: 70 });
      const resized = await admin.request('PUT', `/api/redactions/box/image-redaction-${id}`, { w: 5, height: 2 });
      expect(bodyOf<{ redaction: AppRecord }>(resized).redaction).toMatchObject({ image_x1: 50, image_y1: 60, image_x2: 55, image_y2: 62 });
      const reshaped = await admin.request('PUT', `/api/redactions/box/${id}`, { type: 'polygon', polygon_points: TRIANGLE });
      expect(reshaped.statusCode, reshaped.body).toBe(200);
      expect(bodyOf<{ redaction: AppRecord }>(reshaped).redaction).toMatchObject({ redaction_type: 'polygon', image_polygon_points: TRIANGLE, image_x1: 50, image_x2: 55 });
      const explicit = await admin.request('PUT', `/api/redactions/box/${id}`, { image_x2: 80 });
      expect(bodyOf<{ redaction: AppRecord }>(explicit).redaction).toMatchObject({ image_x1: 50, image_x2: 80, image_y2: 62 });
    });

    it('a PDF document rejects image-only items', async () => {
      const pdf = await newPdf();
      await expect400(pdf, [{ redaction_id: randomUUID(), layer: 'B6', image_x1: 1, image_y1: 2, image_x2: 30, image_y2: 40 }], /pdf_x1$/);
    });

    it('image boxes read back through the integration API in image pixels', async () => {
      const items = await v1Redactions(docId);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((item) => item.coordinates.units === 'image_pixels')).toBe(true);
    });
  });

  describe('PUT /api/redactions/box/{id}', () => {
    let docId: string;
    let item: Record<string, unknown>;
    let other: Record<string, unknown>;
    let original: AppRecord;
    beforeAll(async () => {
      docId = await newPdf();
      item = pdfItem('B6', { redaction_reason: 'original' });
      other = pdfItem('B6', { pdf_x1: 300, pdf_x2: 350 });
      await saveOk(docId, [item, other]);
      original = (await list(docId)).redactions.find((record) => record.redaction_id === item.redaction_id)!;
    });

    it('single form merges fields onto the box and makes a new version', async () => {
      const response = await admin.request('PUT', `/api/redactions/box/${String(item.redaction_id)}`, { redaction_reason: 'merged', pdf_x2: 150 });
      expect(response.statusCode, response.body).toBe(200);
      const body = bodyOf<{ success: boolean; redaction: AppRecord; version_id: string; version: number }>(response);
      expect(body.success).toBe(true);
      expect(body.version).toBe(2);
      expect(body.redaction).toMatchObject({ redaction_reason: 'merged', pdf_x1: 10, pdf_y1: 20, pdf_x2: 150, pdf_y2: 60, layer: 'B6', version_id: body.version_id });
      const stored = (await list(docId)).redactions.find((record) => record.redaction_id === item.redaction_id);
      expect(stored).toMatchObject({ redaction_reason: 'merged', pdf_x2: 150 });
    });

    it('strips _id, doc_id, created_at and created_by: they cannot change', async () => {
      const response = await admin.request('PUT', `/api/redactions/box/${String(item.redaction_id)}`, {
        _id: '999999',
        doc_id: 424242,
        created_at: '2001-01-01T00:00:00.000Z',
        created_by: 'user:evil',
        redaction_reason: 'still mine',
      });
      expect(response.statusCode, response.body).toBe(200);
      const stored = (await list(docId)).redactions.find((record) => record.redaction_id === item.redaction_id)!;
      expect(stored).toMatchObject({ _id: original._id, doc_id: original.doc_id, created_at: original.created_at, created_by: original.created_by, redaction_reason: 'still mine' });
    });

    it('accepts the pdf-redaction- prefix and a current version_id; a stale version_id → 409 with currentVersion', async () => {
      const layer = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      const ok = await admin.request('PUT', `/api/redactions/box/pdf-redaction-${String(item.redaction_id)}`, { redaction_reason: 'prefixed', version_id: layer.version_id });
      expect(ok.statusCode, ok.body).toBe(200);
      const stale = await admin.request('PUT', `/api/redactions/box/pdf-redaction-${String(item.redaction_id)}`, { redaction_reason: 'late', version_id: layer.version_id });
      expect(stale.statusCode).toBe(409);
      const body = bodyOf<AppError>(stale);
      expect(body.currentVersion?.version_id).toBe(bodyOf<{ version_id: string }>(ok).version_id);
      expect((await list(docId)).redactions.find((record) => record.redaction_id === item.redaction_id)?.redaction_reason).toBe('prefixed');
      // The image prefix does not find a PDF box.
      expect((await admin.request('PUT', `/api/redactions/box/image-redaction-${String(item.redaction_id)}`, { redaction_reason: 'x' })).statusCode).toBe(404);
    });

    it('an update that breaks the box, or moves it to another layer → 400; an unknown id → 404', async () => {
      expect((await admin.request('PUT', `/api/redactions/box/${String(item.redaction_id)}`, { pdf_x2: 0 })).statusCode).toBe(400);
      expect((await admin.request('PUT', `/api/redactions/box/${String(item.redaction_id)}`, { layer: 'B5' })).statusCode).toBe(400);
      expect((await admin.request('PUT', `/api/redactions/box/${String(item.redaction_id)}`, { classification_type: 'secret' })).statusCode).toBe(400);
      expect((await admin.request('PUT', `/api/redactions/box/${randomUUID()}`, { redaction_reason: 'x' })).statusCode).toBe(404);
    });

    it('batch form: per-item redaction_id, version_id, success and message; one bad item does not sink the others', async () => {
      const layer = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      const missing = randomUUID();
      const response = await admin.request('PUT', '/api/redactions/box/batch', {
        redactionList: [
          { redaction_id: `pdf-redaction-${String(item.redaction_id)}`, version_id: layer.version_id, updates: { redaction_reason: 'batch one' } },
          { redaction_id: missing, version_id: layer.version_id, updates: { redaction_reason: 'nobody' } },
          { redaction_id: String(other.redaction_id), version_id: layer.version_id, updates: { pdf_y2: 5 } },
          { redaction_id: String(other.redaction_id), updates: { redaction_reason: 'batch two' } },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      const { results } = bodyOf<{ success: boolean; results: ItemResult[] }>(response);
      expect(results).toHaveLength(4);
      expect(results.map((result) => result.success)).toEqual([true, false, false, true]);
      expect(results.map((result) => result.redaction_id)).toEqual([`pdf-redaction-${String(item.redaction_id)}`, missing, String(other.redaction_id), String(other.redaction_id)]);
      for (const result of results) expect(typeof result.message).toBe('string');
      expect(results[1]?.message).toMatch(/not found/);
      expect(results[2]?.message).toMatch(/height|y2/);
      const newVersion = results[0]?.version_id;
      expect(newVersion).toMatch(UUID);
      expect(newVersion).not.toBe(layer.version_id);
      expect(results[3]?.version_id).toBe(newVersion);
      const stored = (await list(docId)).redactions;
      expect(stored.find((record) => record.redaction_id === item.redaction_id)?.redaction_reason).toBe('batch one');
      expect(stored.find((record) => record.redaction_id === other.redaction_id)).toMatchObject({ redaction_reason: 'batch two', pdf_y2: 60 });
    });

    it('batch form: a stale version_id fails only that item', async () => {
      const layer = bodyOf<LayerResult>(await admin.request('GET', `/api/redactions/${docId}/layer/B6`));
      const response = await admin.request('PUT', '/api/redactions/box/batch', {
        redactionList: [
          { redaction_id: String(item.redaction_id), version_id: randomUUID(), updates: { redaction_reason: 'stale' } },
          { redaction_id: String(other.redaction_id), version_id: layer.version_id, updates: { redaction_reason: 'fresh' } },
        ],
      });
      const { results } = bodyOf<{ results: ItemResult[] }>(response);
      expect(results.map((result) => result.success)).toEqual([false, true]);
      expect(results[0]?.message).toMatch(/stale/);
    });

    it('batch form: a box named twice takes both updates, in order', async () => {
      const response = await admin.request('PUT', '/api/redactions/box/batch', {
        redactionList: [
          { redaction_id: String(other.redaction_id), updates: { redaction_reason: 'twice' } },
          { redaction_id: `pdf-redaction-${String(other.redaction_id)}`, updates: { pdf_x2: 360 } },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(bodyOf<{ results: ItemResult[] }>(response).results.map((result) => result.success)).toEqual([true, true]);
      expect((await list(docId)).redactions.find((record) => record.redaction_id === other.redaction_id)).toMatchObject({ redaction_reason: 'twice', pdf_x2: 360 });
    });

    it('batch form: a non-array redactionList → 400', async () => {
      expect((await admin.request('PUT', '/api/redactions/box/batch', { redactionList: 'all' })).statusCode).toBe(400);
      expect((await admin.request('PUT', '/api/redactions/box/batch', { redactionList: [] })).statusCode).toBe(400);
    });
  });

  describe('DELETE /api/redactions/box/{id}', () => {
    it('single: removes the box (with or without the prefix) and makes a new version', async () => {
      const docId = await newPdf();
      const a = pdfItem('B6');
      const b = pdfItem('B6');
      await saveOk(docId, [a, b]);
      const first = await admin.request('DELETE', `/api/redactions/box/pdf-redaction-${String(a.redaction_id)}`);
      expect(first.statusCode, first.body).toBe(200);
      expect(bodyOf<{ deletedCount: number; version: number }>(first)).toMatchObject({ deletedCount: 1, version: 2 });
      const second = await admin.request('DELETE', `/api/redactions/box/${String(b.redaction_id)}`);
      expect(second.statusCode).toBe(200);
      expect((await list(docId)).count).toBe(0);
      expect((await admin.request('DELETE', `/api/redactions/box/${String(b.redaction_id)}`)).statusCode).toBe(404);
    });

    it('batch: redactionList deletes each item on its own', async () => {
      const docId = await newPdf();
      const a = pdfItem('B6');
      const b = pdfItem('B6');
      const c = pdfItem('B6');
      const saved = await saveOk(docId, [a, b, c]);
      const missing = randomUUID();
      const response = await admin.request('DELETE', '/api/redactions/box/batch', {
        redactionList: [
          { redaction_id: `pdf-redaction-${String(a.redaction_id)}`, version_id: saved.version_id },
          { redaction_id: missing, version_id: saved.version_id },
          { redaction_id: String(c.redaction_id), version_id: saved.version_id },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = bodyOf<{ deletedCount: number; results: ItemResult[] }>(response);
      expect(body.deletedCount).toBe(2);
      expect(body.results.map((result) => result.success)).toEqual([true, false, true]);
      expect(body.results[1]?.redaction_id).toBe(missing);
      expect((await list(docId)).redactions.map((record) => record.redaction_id)).toEqual([b.redaction_id]);
    });
    it('batch: a box named twice is deleted once and does not sink the other items', async () => {
      const docId = await newPdf();
      const a = pdfItem('B6');
      const b = pdfItem('B6');
      const keep = pdfItem('B6');
      await saveOk(docId, [a, b, keep]);
      const response = await admin.request('DELETE', '/api/redactions/box/batch', {
        redactionList: [{ redaction_id: String(a.redaction_id) }, { redaction_id: `pdf-redaction-${String(a.redaction_id)}` }, { redaction_id: String(b.redaction_id) }],
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = bodyOf<{ deletedCount: number; results: ItemResult[] }>(response);
      expect(body.results.map((result) => result.success)).toEqual([true, true, true]);
      expect(body.deletedCount).toBe(2);
      expect((await list(docId)).redactions.map((record) => record.redaction_id)).toEqual([keep.redaction_id]);
    });
  });

  describe('DELETE /api/redactions/{docId}', () => {
    it('an admin clears every layer → deletedCount', async () => {
      const docId = await newPdf();
      await saveOk(docId, [pdfItem('B6'), pdfItem('B6')]);
      await saveOk(docId, [pdfItem('B1')]);
      const response = await admin.request('DELETE', `/api/redactions/${docId}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(bodyOf<{ success: boolean; message: string; deletedCount: number }>(response)).toMatchObject({ success: true, deletedCount: 3 });
      expect((await list(docId)).count).toBe(0);
      // The history is kept: each layer got a new, empty version.
      const versions = bodyOf<VersionList>(await admin.request('GET', `/api/redactions/${docId}/layer/B6/versions`));
      expect(versions.versions.map((version) => version.summary.count)).toEqual([2, 0]);
    });

    it('a non-admin who does not own the document → 403; the owner may', async () => {
      const docId = await newPdf();
      await saveOk(docId, [pdfItem('B3'), pdfItem('B3')]);
      const refused = await clerk.request('DELETE', `/api/redactions/${docId}`);
      expect(refused.statusCode).toBe(403);
      expect(bodyOf<AppError>(refused).code).toBe('permission_denied');
      expect((await list(docId)).count).toBe(2);

      await instance.runtime.db.updateTable('documents').set({ owner_user_id: Number(clerk.userId) }).where('id', '=', Number(docId)).execute();
      const allowed = await clerk.request('DELETE', `/api/redactions/${docId}`);
      expect(allowed.statusCode, allowed.body).toBe(200);
      expect(bodyOf<{ deletedCount: number }>(allowed).deletedCount).toBe(2);
      expect((await list(docId)).count).toBe(0);
    });
  });

  describe('GET /api/redactions/types', () => {
    it('lists tools, kinds, layers with exemption labels, and classification types', async () => {
      const response = await admin.request('GET', '/api/redactions/types');
      expect(response.statusCode).toBe(200);
      const body = bodyOf<{
        tools: { tool: string; label: string; kind: string; required_fields: string[]; min_points: number }[];
        kinds: { kind: string; label: string; min_points: number }[];
        layers: { layer: string; exemption: string; label: string; requires_classification: boolean }[];
        classification_types: string[];
      }>(response);
      expect(body.tools.map((tool) => tool.tool)).toEqual(expect.arrayContaining(['rectangle', 'polygon', 'lasso', 'freehand', 'full_page']));
      expect(body.tools.find((tool) => tool.tool === 'full_page')?.kind).toBe('rectangle');
      expect(body.tools.find((tool) => tool.tool === 'polygon')?.required_fields).toContain('pdf_polygon_points');
      expect(body.kinds.map((kind) => kind.kind)).toEqual(['rectangle', 'polygon', 'lasso', 'freehand']);
      expect(body.kinds.find((kind) => kind.kind === 'lasso')?.min_points).toBe(3);
      expect(body.layers.map((layer) => layer.layer)).toEqual([...LAYERS]);
      expect(body.layers.find((layer) => layer.layer === 'B6')).toMatchObject({ exemption: '(b)(6)', label: 'Personal privacy', requires_classification: false });
      expect(body.layers.find((layer) => layer.layer === 'B1')?.requires_classification).toBe(true);
      expect(body.layers.every((layer) => layer.label.length > 0)).toBe(true);
      expect(body.classification_types).toEqual([...CLASSIFICATION_TYPES]);

      const v1 = await instance.request({ method: 'GET', url: '/api/v1/redaction-types' });
      expect(v1.statusCode).toBe(200);
      expect(v1.json<{ data: { kind: string }[] }>().data.map((kind) => kind.kind)).toEqual(body.kinds.map((kind) => kind.kind));
    });
  });

  describe('round trip between the two APIs', () => {
    it('a box saved through the app reads back identically through GET /api/v1/redactions/{id}', async () => {
      const docId = await newPdf();
      const polygon = pdfItem('B1', { redaction_type: 'polygon', pdf_polygon_points: TRIANGLE, redaction_reason: 'classified map', classification_type: 'top_secret', page_number: 1 });
      const rectangle = pdfItem('B1', { redaction_reason: null, classification_type: 'confidential', pdf_x1: 1.25, pdf_y1: 2.5, pdf_x2: 600.75, pdf_y2: 791.5 });
      await saveOk(docId, [polygon, rectangle]);
      for (const record of (await list(docId)).redactions) {
        const response = await instance.request({ method: 'GET', url: `/api/v1/redactions/${record._id}` });
        expect(response.statusCode, response.body).toBe(200);
        const v1 = response.json<{ data: V1Redaction }>().data;
        expect(v1).toMatchObject({
          id: record._id,
          document_id: docId,
          redaction_id: record.redaction_id,
          kind: record.redaction_type,
          layer: record.layer,
          exemption: record.exemption,
          reason: record.redaction_reason,
          classification_type: record.classification_type,
          state: record.state,
          pending_reason: record.pending_reason,
          version_id: record.version_id,
        });
        expect(v1.coordinates).toEqual({
          page: record.page_number,
          units: 'pdf_points',
          box: { x1: record.pdf_x1, y1: record.pdf_y1, x2: record.pdf_x2, y2: record.pdf_y2 },
          points: record.pdf_polygon_points,
        });
      }
      const stored = (await list(docId)).redactions.find((record) => record.redaction_id === polygon.redaction_id)!;
      expect(stored).toMatchObject({ redaction_type: 'polygon', pdf_polygon_points: TRIANGLE, redaction_reason: 'classified map', classification_type: 'top_secret', layer: 'B1', state: 'accepted' });
    });

    it('a box created through the integration API reads back identically through GET /api/redactions/{docId}', async () => {
      const docId = await newPdf();
      const response = await instance.request({
        method: 'POST',
        url: `/api/v1/documents/${docId}/redactions`,
        body: {
          redactions: [
            { kind: 'freehand', layer: 'B7', reason: 'informant', coordinates: { page: 1, units: 'pdf_points', points: [{ x: 5, y: 5 }, { x: 50, y: 8 }, { x: 30, y: 45 }, { x: 2, y: 30 }] } },
            { kind: 'rectangle', layer: 'B1', classification_type: 'secret', coordinates: { page: 1, units: 'pdf_points', box: { x1: 10.5, y1: 11, x2: 20, y2: 21.25 } }, state: 'pending', pending_reason: { detector: 'keyword', match: 'NOFORN' } },
          ],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json<{ data: { redactions: V1Redaction[] } }>().data.redactions;
      expect(created[0]?.coordinates.box).toEqual({ x1: 2, y1: 5, x2: 50, y2: 45 });
      const records = (await list(docId)).redactions;
      expect(records).toHaveLength(2);
      for (const v1 of created) {
        const record = records.find((candidate) => candidate.redaction_id === v1.redaction_id);
        expect(record).toMatchObject({
          _id: v1.id,
          doc_id: Number(docId),
          record_type: 'pdf',
          page_number: v1.coordinates.page,
          redaction_type: v1.kind,
          layer: v1.layer,
          exemption: v1.exemption,
          pdf_x1: v1.coordinates.box.x1,
          pdf_y1: v1.coordinates.box.y1,
          pdf_x2: v1.coordinates.box.x2,
          pdf_y2: v1.coordinates.box.y2,
          pdf_polygon_points: v1.coordinates.points,
          redaction_reason: v1.reason,
          classification_type: v1.classification_type,
          state: v1.state,
          pending_reason: v1.pending_reason,
          version_id: v1.version_id,
        });
      }
      expect(records.find((record) => record.layer === 'B1')).toMatchObject({ state: 'pending', pending_reason: { detector: 'keyword', match: 'NOFORN' } });
      expect(records.find((record) => record.layer === 'B7')).toMatchObject({ state: 'accepted', redaction_reason: 'informant' });
    });
  });
});
