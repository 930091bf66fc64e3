import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_SCOPES, type Scope } from '../../main/common/scopes.js';
import { Redaction, RedactionType, ReviewDecision } from '../../main/common/schemas/redactions.js';
import { createUserAndSignIn, signInAdmin, type AppClient } from '../helpers/app-session.js';
import type { TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, pageOf } from '../helpers/integration-support.js';
import { apiKeyIdOf } from '../helpers/rows.js';
import {
  createBox,
  createBoxes,
  everyScopeBut,
  keyWithScopes,
  layerVersionsOf,
  newDocument,
  polygon,
  readBox,
  rect,
  startUnlimitedInstance,
  storeCounts,
} from '../helpers/v1-redactions-support.js';

const Decisions = z.object({ decisions: z.array(ReviewDecision) });

const AppRecord = z.looseObject({
  _id: z.string(),
  redaction_id: z.string(),
  redaction_type: z.string(),
  layer: z.string(),
  state: z.string(),
  page_number: z.number(),
  pdf_x1: z.number(),
  pdf_y1: z.number(),
  pdf_x2: z.number(),
  pdf_y2: z.number(),
  pdf_polygon_points: z.array(z.object({ x: z.number(), y: z.number() })),
  redaction_reason: z.string().nullable(),
});
const AppList = z.looseObject({ success: z.literal(true), redactions: z.array(AppRecord) });

let instance: TestInstance;
let pdfDoc: string;
let pngDoc: string;
let apiActor: string;

beforeAll(async () => {
  instance = await startUnlimitedInstance();
  pdfDoc = await newDocument(instance, 'pdf');
  pngDoc = await newDocument(instance, 'png');
  apiActor = `api_key:${await apiKeyIdOf(instance.runtime.db, keyOf(instance, 0))}`;
});
afterAll(() => instance.close());

function post(documentId: string, body: unknown, key?: string) {
  return instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/redactions`, body, ...(key && { key }) });
}

function patch(id: string, body: unknown, key?: string) {
  return instance.request({ method: 'PATCH', url: `/api/v1/redactions/${id}`, body, ...(key && { key }) });
}

function decide(documentId: string, body: unknown, key?: string) {
  return instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/review-decisions`, body, ...(key && { key }) });
}

async function appList(client: AppClient, documentId: string) {
  const response = await client.request('GET', `/api/redactions/${documentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return AppList.parse(response.json()).redactions;
}

describe('POST and GET /documents/{id}/redactions', () => {
  it('creates boxes (201, data.redactions) with a kind from /redaction-types, coordinates, layer, exemption, reason and state', async () => {
    const types = pageOf(await instance.request({ method: 'GET', url: '/api/v1/redaction-types' }), RedactionType).data.map((type) => type.kind);
    const items = [rect({ reason: 'phone number' }), polygon('lasso', 'pdf_points', { layer: 'B7', reason: null })];
    const created = await createBoxes(instance, pdfDoc, items);
    expect(created).toHaveLength(2);
    const [box, lasso] = created as [Redaction, Redaction];
    expect(types).toContain(box.kind);
    expect(types).toContain(lasso.kind);
    expect(box).toMatchObject({
      document_id: pdfDoc,
      redaction_id: items[0]?.redaction_id,
      kind: 'rectangle',
      layer: 'B6',
      exemption: '(b)(6)',
      reason: 'phone number',
      state: 'accepted',
      pending_reason: null,
      review: null,
      coordinates: { page: 1, units: 'pdf_points', box: { x1: 10, y1: 20, x2: 110, y2: 60 }, points: [] },
      created_by: apiActor,
    });
    // A box derived from the outline when only points are given.
    expect(lasso).toMatchObject({
      kind: 'lasso',
      layer: 'B7',
      exemption: '(b)(7)',
      reason: null,
      coordinates: { page: 1, units: 'pdf_points', box: { x1: 10, y1: 10, x2: 60, y2: 50 }, points: [{ x: 10, y: 10 }, { x: 60, y: 10 }, { x: 35, y: 50 }] },
    });
    expect(await readBox(instance, box.id)).toEqual(box);
  });

  it('accepts image_pixels on a PNG document', async () => {
    const box = await createBox(instance, pngDoc, rect({ coordinates: { page: 1, units: 'image_pixels', box: { x1: 0, y1: 0, x2: 1, y2: 1 } } }));
    expect(box.coordinates).toEqual({ page: 1, units: 'image_pixels', box: { x1: 0, y1: 0, x2: 1, y2: 1 }, points: [] });
  });

  it('lists a document page by page with limit and cursor, every box exactly once', async () => {
    const documentId = await newDocument(instance);
    const created = await createBoxes(instance, documentId, [rect(), rect(), rect(), rect({ layer: 'B5' }), rect()]);
    const seen: Redaction[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `limit=2&cursor=${encodeURIComponent(cursor)}` : 'limit=2';
      const page = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/redactions?${query}` }), Redaction);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((box) => box.id).sort()).toEqual(created.map((box) => box.id).sort());
  });

  it('refuses a cursor of another list', async () => {
    const page = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${pdfDoc}/redactions?limit=1` }), Redaction);
    expect(page.cursor).not.toBeNull();
    const other = await newDocument(instance);
    const response = await instance.request({ method: 'GET', url: `/api/v1/documents/${other}/redactions?cursor=${encodeURIComponent(page.cursor ?? '')}` });
    errorOf(response, 400, 'validation_error');
  });

  const invalid: { name: string; document: () => string; body: unknown; fields: string[] }[] = [
    { name: 'unknown kind', document: () => pdfDoc, body: { redactions: [rect({ kind: 'circle' })] }, fields: ['redactions.0.kind'] },
    {
      name: 'pdf_points on a PNG document',
      document: () => pngDoc,
      body: { redactions: [rect()] },
      fields: ['redactions.0.coordinates.units'],
    },
    {
      name: 'image_pixels on a PDF document',
      document: () => pdfDoc,
      body: { redactions: [rect({ coordinates: { page: 1, units: 'image_pixels', box: { x1: 1, y1: 1, x2: 5, y2: 5 } } })] },
      fields: ['redactions.0.coordinates.units'],
    },
    {
      name: 'unknown units',
      document: () => pdfDoc,
      body: { redactions: [rect({ coordinates: { page: 1, units: 'inches', box: { x1: 1, y1: 1, x2: 5, y2: 5 } } })] },
      fields: ['redactions.0.coordinates.units'],
    },
    {
      name: 'box with x2 equal to x1',
      document: () => pdfDoc,
      body: { redactions: [rect({ coordinates: { page: 1, units: 'pdf_points', box: { x1: 50, y1: 1, x2: 50, y2: 5 } } })] },
      fields: ['redactions.0.coordinates.box.x2'],
    },
    {
      name: 'box with x2 left of x1 and y2 above y1',
      document: () => pdfDoc,
      body: { redactions: [rect(), rect({ coordinates: { page: 1, units: 'pdf_points', box: { x1: 50, y1: 9, x2: 40, y2: 5 } } })] },
      fields: ['redactions.1.coordinates.box.x2', 'redactions.1.coordinates.box.y2'],
    },
    {
      name: 'page 0',
      document: () => pdfDoc,
      body: { redactions: [rect({ coordinates: { page: 0, units: 'pdf_points', box: { x1: 1, y1: 1, x2: 5, y2: 5 } } })] },
      fields: ['redactions.0.coordinates.page'],
    },
    {
      name: 'neither box nor points',
      document: () => pdfDoc,
      body: { redactions: [rect({ coordinates: { page: 1, units: 'pdf_points' } })] },
      fields: ['redactions.0.coordinates'],
    },
    ...['polygon', 'lasso', 'freehand'].map((kind) => ({
      name: `${kind} with two points`,
      document: () => pdfDoc,
      body: { redactions: [rect({ kind, coordinates: { page: 1, units: 'pdf_points', points: [{ x: 1, y: 1 }, { x: 9, y: 9 }] } })] },
      fields: ['redactions.0.coordinates.points'],
    })),
    {
      name: 'polygon with a box and no points',
      document: () => pdfDoc,
      body: { redactions: [rect({ kind: 'polygon' })] },
      fields: ['redactions.0.coordinates.points'],
    },
    { name: 'B1 without classification_type', document: () => pdfDoc, body: { redactions: [rect({ layer: 'B1' })] }, fields: ['redactions.0.classification_type'] },
    {
      name: 'B1 with an unknown classification_type',
      document: () => pdfDoc,
      body: { redactions: [rect({ layer: 'B1', classification_type: 'ultra' })] },
      fields: ['redactions.0.classification_type'],
    },
    { name: 'unknown layer', document: () => pdfDoc, body: { redactions: [rect({ layer: 'B9' })] }, fields: ['redactions.0.layer'] },
    { name: 'redactions is an object', document: () => pdfDoc, body: { redactions: rect() }, fields: ['redactions'] },
    { name: 'redactions is a string', document: () => pdfDoc, body: { redactions: 'all of them' }, fields: ['redactions'] },
    { name: 'redactions is null', document: () => pdfDoc, body: { redactions: null }, fields: ['redactions'] },
    { name: 'redactions is missing', document: () => pdfDoc, body: {}, fields: ['redactions'] },
    { name: 'redactions is empty', document: () => pdfDoc, body: { redactions: [] }, fields: ['redactions'] },
    {
      name: 'a redaction_id twice in one request',
      document: () => pdfDoc,
      body: { redactions: [rect({ redaction_id: 'twice' }), rect({ redaction_id: 'twice' })] },
      fields: ['redactions.1.redaction_id'],
    },
  ];

  it.each(invalid)('400 validation_error naming the field: $name', async ({ document, body, fields }) => {
    const before = await storeCounts(instance);
    const error = errorOf(await post(document(), body), 400, 'validation_error');
    expect(detailFields(error)).toEqual(expect.arrayContaining(fields));
    expect(await storeCounts(instance)).toEqual(before);
  });

  it('409 conflict for a redaction_id the document already has, in any layer; nothing is written', async () => {
    const existing = await createBox(instance, pdfDoc, rect({ layer: 'B4' }));
    const before = await storeCounts(instance);
    const error = errorOf(await post(pdfDoc, { redactions: [rect(), rect({ layer: 'B3', redaction_id: existing.redaction_id })] }), 409, 'conflict');
    expect(error.message).toContain(existing.redaction_id);
    expect(await storeCounts(instance)).toEqual(before);
    // The same client id on another document is fine: ids are per document.
    const other = await newDocument(instance);
    expect((await createBox(instance, other, rect({ redaction_id: existing.redaction_id }))).redaction_id).toBe(existing.redaction_id);
  });

  it('makes one new version per layer touched, each holding its layer boxes', async () => {
    const documentId = await newDocument(instance);
    await createBox(instance, documentId, rect({ layer: 'B7' }));
    const created = await createBoxes(instance, documentId, [rect({ layer: 'B6' }), rect({ layer: 'B7' }), rect({ layer: 'B6' })]);
    const versions = await layerVersionsOf(instance, documentId);
    expect(versions.map((version) => [version.layer, version.version])).toEqual([
      ['B7', 1],
      ['B6', 1],
      ['B7', 2],
    ]);
    const byLayer = new Map(versions.slice(1).map((version) => [version.layer, version.version_id]));
    for (const box of created) expect(box.version_id).toBe(byLayer.get(box.layer));
    expect(new Set(versions.map((version) => version.version_id)).size).toBe(3);
    expect(versions.every((version) => version.origin === 'api' && version.created_by === apiActor)).toBe(true);
  });

  it("state 'pending' with a pending_reason creates staged suggestions the app API lists as pending", async () => {
    const documentId = await newDocument(instance);
    const reason = { entity: 'SSN', score: 0.93 };
    const [staged, plain] = (await createBoxes(instance, documentId, [rect({ state: 'pending', pending_reason: reason }), rect()])) as [Redaction, Redaction];
    expect(staged).toMatchObject({ state: 'pending', pending_reason: reason });
    expect(plain).toMatchObject({ state: 'accepted', pending_reason: null });
    expect(await readBox(instance, staged.id)).toMatchObject({ state: 'pending', pending_reason: reason });
    const admin = await signInAdmin(instance);
    const records = await appList(admin, documentId);
    expect(records.find((record) => record._id === staged.id)?.state).toBe('pending');
    expect(records.find((record) => record._id === plain.id)?.state).toBe('accepted');
  });

  it('replays a retried create with the same Idempotency-Key and creates nothing new', async () => {
    const documentId = await newDocument(instance);
    const body = { redactions: [rect(), rect({ layer: 'B5' })] };
    const first = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/redactions`, body, idempotencyKey: 'create-boxes-once' });
    expect(first.statusCode, first.body).toBe(201);
    const before = await storeCounts(instance);
    const again = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/redactions`, body, idempotencyKey: 'create-boxes-once' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await storeCounts(instance)).toEqual(before);
    const other = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/redactions`, body: { redactions: [rect()] }, idempotencyKey: 'create-boxes-once' });
    errorOf(other, 409, 'idempotency_key_reused');
    expect(await storeCounts(instance)).toEqual(before);
  });
});

describe('GET, PATCH and DELETE /redactions/{id}', () => {
  it('patches kind, coordinates and reason; the app API reads the same geometry', async () => {
    const box = await createBox(instance, pdfDoc, rect({ layer: 'B2' }));
    const coordinates = { page: 1, units: 'pdf_points', points: [{ x: 100, y: 100 }, { x: 200, y: 120 }, { x: 150, y: 220 }] };
    const response = await patch(box.id, { kind: 'polygon', coordinates, reason: 'deliberative' });
    const patched = dataOf(response, Redaction);
    expect(patched).toMatchObject({
      id: box.id,
      redaction_id: box.redaction_id,
      kind: 'polygon',
      layer: 'B2',
      reason: 'deliberative',
      state: 'accepted',
      coordinates: { page: 1, units: 'pdf_points', box: { x1: 100, y1: 100, x2: 200, y2: 220 }, points: coordinates.points },
      created_at: box.created_at,
    });
    expect(patched.version_id).not.toBe(box.version_id);
    expect(await readBox(instance, box.id)).toEqual(patched);

    const admin = await signInAdmin(instance);
    const record = (await appList(admin, pdfDoc)).find((item) => item._id === box.id);
    expect(record).toMatchObject({
      redaction_id: box.redaction_id,
      redaction_type: 'polygon',
      layer: 'B2',
      page_number: 1,
      pdf_x1: 100,
      pdf_y1: 100,
      pdf_x2: 200,
      pdf_y2: 220,
      pdf_polygon_points: coordinates.points,
      redaction_reason: 'deliberative',
    });
  });

  it('patches only the reason, keeping geometry; clears it with null', async () => {
    const box = await createBox(instance, pdfDoc);
    const renamed = dataOf(await patch(box.id, { reason: 'other' }), Redaction);
    expect(renamed).toMatchObject({ reason: 'other', kind: box.kind, coordinates: box.coordinates });
    expect(dataOf(await patch(box.id, { reason: null }), Redaction).reason).toBeNull();
  });

  const badPatches: { name: string; body: unknown; fields: string[] }[] = [
    { name: 'empty body', body: {}, fields: ['body'] },
    { name: 'unknown kind', body: { kind: 'circle' }, fields: ['kind'] },
    { name: 'to polygon without points', body: { kind: 'polygon' }, fields: ['body.coordinates.points'] },
    { name: 'image units on a PDF', body: { coordinates: { page: 1, units: 'image_pixels', box: { x1: 1, y1: 1, x2: 2, y2: 2 } } }, fields: ['body.coordinates.units'] },
    { name: 'x2 <= x1', body: { coordinates: { page: 1, units: 'pdf_points', box: { x1: 5, y1: 1, x2: 5, y2: 2 } } }, fields: ['body.coordinates.box.x2'] },
    { name: 'unknown field', body: { layer: 'B7' }, fields: [] },
  ];

  it.each(badPatches)('PATCH 400 validation_error: $name, nothing changed', async ({ body, fields }) => {
    const box = await createBox(instance, pdfDoc);
    const before = await storeCounts(instance);
    const error = errorOf(await patch(box.id, body), 400, 'validation_error');
    expect(detailFields(error)).toEqual(expect.arrayContaining(fields));
    expect(await readBox(instance, box.id)).toEqual(box);
    expect(await storeCounts(instance)).toEqual(before);
  });

  it('423 locked with error.locked_layers while a user holds the layer lock through the app API', async () => {
    const documentId = await newDocument(instance);
    const box = await createBox(instance, documentId, rect({ layer: 'B3' }));
    const other = await createBox(instance, documentId, rect({ layer: 'B4' }));
    const clerk = await createUserAndSignIn(instance);
    const lock = await clerk.request('POST', `/api/redactions/${documentId}/layer/B3/lock`);
    expect(lock.statusCode, lock.body).toBe(200);
    const before = await storeCounts(instance);
    const error = errorOf(await patch(box.id, { reason: 'blocked' }), 423, 'locked');
    expect(error['locked_layers']).toEqual(['B3']);
    expect(await readBox(instance, box.id)).toEqual(box);
    expect(await storeCounts(instance)).toEqual(before);
    // Other layers stay writable.
    expect(dataOf(await patch(other.id, { reason: 'fine' }), Redaction).reason).toBe('fine');
    const release = await clerk.request('DELETE', `/api/redactions/${documentId}/layer/B3/lock`);
    expect(release.statusCode, release.body).toBe(200);
    expect(dataOf(await patch(box.id, { reason: 'now free' }), Redaction).reason).toBe('now free');
  });

  it('DELETE answers 204, then the redaction is 404 for GET, PATCH and DELETE and gone from both lists', async () => {
    const documentId = await newDocument(instance);
    const box = await createBox(instance, documentId);
    const deleted = await instance.request({ method: 'DELETE', url: `/api/v1/redactions/${box.id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(deleted.body).toBe('');
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/redactions/${box.id}` }), 404, 'resource_not_found');
    errorOf(await patch(box.id, { reason: 'x' }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'DELETE', url: `/api/v1/redactions/${box.id}` }), 404, 'resource_not_found');
    expect(pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/redactions` }), Redaction).data).toEqual([]);
    expect(await appList(await signInAdmin(instance), documentId)).toEqual([]);
    const versions = await layerVersionsOf(instance, documentId);
    expect(versions.map((version) => version.version)).toEqual([1, 2]);
  });

  it('404 for ids that never existed and 400 for ids that are not ids', async () => {
    errorOf(await instance.request({ method: 'GET', url: '/api/v1/redactions/999999' }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: '/api/v1/redactions/abc' }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: '/api/v1/documents/999999/redactions' }), 404, 'resource_not_found');
    errorOf(await post('999999', { redactions: [rect()] }), 404, 'resource_not_found');
  });
});

describe('POST /documents/{id}/review-decisions', () => {
  it.each([
    ['an object', { redaction_id: '1', decision: 'accept' }],
    ['a string', 'accept all'],
    ['null', null],
    ['a number', 7],
  ])('400 validation_error when decisions is %s', async (_name, decisions) => {
    const error = errorOf(await decide(pdfDoc, { decisions }), 400, 'validation_error');
    expect(detailFields(error)).toContain('decisions');
  });

  it('400 validation_error for a missing or empty decisions', async () => {
    expect(detailFields(errorOf(await decide(pdfDoc, {}), 400, 'validation_error'))).toContain('decisions');
    expect(detailFields(errorOf(await decide(pdfDoc, { decisions: [] }), 400, 'validation_error'))).toContain('decisions');
  });

  it('400 naming decisions.N fields for malformed elements', async () => {
    const box = await createBox(instance, pdfDoc);
    const error = errorOf(
      await decide(pdfDoc, {
        decisions: [{ redaction_id: box.id, decision: 'accept' }, { redaction_id: box.id, decision: 'maybe' }, { decision: 'reject' }, 'accept', { redaction_id: box.id, decision: 'reject', reason: 5 }],
      }),
      400,
      'validation_error',
    );
    expect(detailFields(error)).toEqual(expect.arrayContaining(['decisions.1.decision', 'decisions.2.redaction_id', 'decisions.3', 'decisions.4.reason']));
    expect(detailFields(error).some((field) => field.startsWith('decisions.0'))).toBe(false);
    expect((await readBox(instance, box.id)).state).toBe('accepted');
  });

  it('400 naming decisions.N.redaction_id for a redaction this document does not have; all or nothing', async () => {
    const documentId = await newDocument(instance);
    const mine = await createBox(instance, documentId, rect({ state: 'pending', pending_reason: { entity: 'EMAIL' } }));
    const elsewhere = await createBox(instance, pdfDoc);
    const before = await storeCounts(instance);
    const error = errorOf(
      await decide(documentId, {
        decisions: [
          { redaction_id: mine.id, decision: 'accept' },
          { redaction_id: elsewhere.id, decision: 'reject' },
          { redaction_id: '999999', decision: 'reject' },
        ],
      }),
      400,
      'validation_error',
    );
    expect(detailFields(error)).toEqual(['decisions.1.redaction_id', 'decisions.2.redaction_id']);
    expect(await storeCounts(instance)).toEqual(before);
    expect(await readBox(instance, mine.id)).toEqual(mine);
    expect(await readBox(instance, elsewhere.id)).toEqual(elsewhere);
  });

  it('accept and reject move staged boxes to accepted and rejected, recorded with who and when', async () => {
    const documentId = await newDocument(instance);
    const [a, b] = (await createBoxes(instance, documentId, [
      rect({ state: 'pending', pending_reason: { entity: 'SSN' } }),
      rect({ layer: 'B7', state: 'pending', pending_reason: { entity: 'NAME' } }),
    ])) as [Redaction, Redaction];
    const started = Date.now();
    const response = await decide(documentId, {
      decisions: [
        { redaction_id: a.id, decision: 'accept', reason: 'confirmed SSN' },
        { redaction_id: b.id, decision: 'reject' },
      ],
    });
    const recorded = dataOf(response, Decisions, 201).decisions;
    expect(recorded).toMatchObject([
      { redaction_id: a.id, decision: 'accept', reason: 'confirmed SSN', decided_by: apiActor, state: 'accepted' },
      { redaction_id: b.id, decision: 'reject', reason: null, decided_by: apiActor, state: 'rejected' },
    ]);
    for (const decision of recorded) expect(Date.parse(decision.decided_at)).toBeGreaterThanOrEqual(started - 1000);

    const readA = await readBox(instance, a.id);
    expect(readA).toMatchObject({ state: 'accepted', review: { decision: 'accept', reason: 'confirmed SSN', decided_by: apiActor, decided_at: recorded[0]?.decided_at } });
    expect(await readBox(instance, b.id)).toMatchObject({ state: 'rejected', review: { decision: 'reject', reason: null, decided_by: apiActor } });

    const rows = await instance.runtime.db.selectFrom('review_decisions').selectAll().where('document_id', '=', Number(documentId)).orderBy('id').execute();
    expect(rows.map((row) => [row.redaction_row_id, row.decision, row.actor_type, row.actor_id])).toEqual([
      [Number(a.id), 'accept', 'api_key', apiActor.split(':')[1]],
      [Number(b.id), 'reject', 'api_key', apiActor.split(':')[1]],
    ]);
    const versions = await layerVersionsOf(instance, documentId);
    expect(versions.filter((version) => version.origin === 'review').map((version) => version.layer).sort()).toEqual(['B6', 'B7']);

    // A later decision replaces the shown review, and the history keeps both.
    dataOf(await decide(documentId, { decisions: [{ redaction_id: a.id, decision: 'reject', reason: 'second look' }] }), Decisions, 201);
    expect(await readBox(instance, a.id)).toMatchObject({ state: 'rejected', review: { decision: 'reject', reason: 'second look' } });
    expect(await instance.runtime.db.selectFrom('review_decisions').select('id').where('redaction_row_id', '=', Number(a.id)).execute()).toHaveLength(2);
  });

  it('a deleted and re-created redaction does not inherit the old review', async () => {
    const documentId = await newDocument(instance);
    const box = await createBox(instance, documentId, rect({ state: 'pending', pending_reason: { entity: 'SSN' } }));
    dataOf(await decide(documentId, { decisions: [{ redaction_id: box.id, decision: 'reject' }] }), Decisions, 201);
    expect((await instance.request({ method: 'DELETE', url: `/api/v1/redactions/${box.id}` })).statusCode).toBe(204);
    const fresh = await createBox(instance, documentId);
    expect(fresh.review).toBeNull();
    expect((await readBox(instance, fresh.id)).review).toBeNull();
  });

  it('423 locked when a user holds the layer of a decided box', async () => {
    const documentId = await newDocument(instance);
    const box = await createBox(instance, documentId, rect({ layer: 'B5', state: 'pending', pending_reason: { entity: 'X' } }));
    const clerk = await createUserAndSignIn(instance);
    expect((await clerk.request('POST', `/api/redactions/${documentId}/layer/B5/lock`)).statusCode).toBe(200);
    const before = await storeCounts(instance);
    const error = errorOf(await decide(documentId, { decisions: [{ redaction_id: box.id, decision: 'accept' }] }), 423, 'locked');
    expect(error['locked_layers']).toEqual(['B5']);
    expect(await storeCounts(instance)).toEqual(before);
  });
});

describe('GET /redaction-types', () => {
  it('lists exactly the kinds of the application catalog', async () => {
    const types = pageOf(await instance.request({ method: 'GET', url: '/api/v1/redaction-types' }), RedactionType);
    expect(types.cursor).toBeNull();
    const admin = await signInAdmin(instance);
    const catalog = await admin.request('GET', '/api/redactions/types');
    expect(catalog.statusCode).toBe(200);
    const kinds = z.object({ kinds: z.array(z.object({ kind: z.string(), min_points: z.number() })) }).parse(catalog.json()).kinds;
    expect(types.data.map((type) => type.kind).sort()).toEqual(kinds.map((kind) => kind.kind).sort());
    for (const kind of kinds) expect(types.data.find((type) => type.kind === kind.kind)?.min_points).toBe(kind.min_points);
  });
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Endpoint {
  method: Method;
  /** As the spec's table writes it. */
  path: string;
  scope: Scope;
  /** Fresh resources of organization 1, made with the full key; the path filled in and the body to send. */
  prepare: () => Promise<{ url: string; body?: unknown }>;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/documents/{document_id}/redactions', scope: 'redactions:read', prepare: async () => ({ url: `/documents/${pdfDoc}/redactions` }) },
  {
    method: 'POST',
    path: '/documents/{document_id}/redactions',
    scope: 'redactions:write',
    prepare: async () => ({ url: `/documents/${pdfDoc}/redactions`, body: { redactions: [rect()] } }),
  },
  { method: 'GET', path: '/redactions/{redaction_id}', scope: 'redactions:read', prepare: async () => ({ url: `/redactions/${(await createBox(instance, pdfDoc)).id}` }) },
  {
    method: 'PATCH',
    path: '/redactions/{redaction_id}',
    scope: 'redactions:write',
    prepare: async () => ({ url: `/redactions/${(await createBox(instance, pdfDoc)).id}`, body: { reason: 'changed' } }),
  },
  { method: 'DELETE', path: '/redactions/{redaction_id}', scope: 'redactions:write', prepare: async () => ({ url: `/redactions/${(await createBox(instance, pdfDoc)).id}` }) },
  {
    method: 'POST',
    path: '/documents/{document_id}/review-decisions',
    scope: 'redactions:write',
    prepare: async () => ({ url: `/documents/${pdfDoc}/review-decisions`, body: { decisions: [{ redaction_id: (await createBox(instance, pdfDoc)).id, decision: 'accept' }] } }),
  },
  { method: 'GET', path: '/redaction-types', scope: 'templates:read', prepare: async () => ({ url: '/redaction-types' }) },
];

function call(method: Method, url: string, body: unknown, key: string) {
  return instance.request({ method, url: `/api/v1${url}`, key, ...(body !== undefined && { body }) });
}

describe('scopes', () => {
  it.each(ENDPOINTS)('$method $path: only $scope grants it', async ({ method, scope, prepare }) => {
    const only = await keyWithScopes(instance, [scope]);
    const allowed = await prepare();
    const passed = await call(method, allowed.url, allowed.body, only);
    expect([401, 403], passed.body).not.toContain(passed.statusCode);
    expect(passed.statusCode, passed.body).toBeLessThan(300);

    const others = await keyWithScopes(instance, everyScopeBut(scope));
    const refused = await prepare();
    const before = await storeCounts(instance);
    errorOf(await call(method, refused.url, refused.body, others), 403, 'permission_denied');
    expect(await storeCounts(instance)).toEqual(before);
  });

  it('the table covers the redaction rows of the spec and nothing else', () => {
    expect(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toHaveLength(new Set(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).size);
    expect(new Set(ENDPOINTS.map((endpoint) => endpoint.scope))).toEqual(new Set<Scope>(['redactions:read', 'redactions:write', 'templates:read']));
    expect(ALL_SCOPES).toContain('templates:read');
  });
});

describe('isolation: organization 2 cannot reach organization 1', () => {
  const foreign: { name: string; method: Method; url: () => Promise<string>; body?: () => Promise<unknown> }[] = [
    { name: 'list', method: 'GET', url: async () => `/documents/${pdfDoc}/redactions` },
    { name: 'create', method: 'POST', url: async () => `/documents/${pdfDoc}/redactions`, body: async () => ({ redactions: [rect()] }) },
    { name: 'get', method: 'GET', url: async () => `/redactions/${(await createBox(instance, pdfDoc)).id}` },
    { name: 'patch', method: 'PATCH', url: async () => `/redactions/${(await createBox(instance, pdfDoc)).id}`, body: async () => ({ reason: 'theirs' }) },
    { name: 'delete', method: 'DELETE', url: async () => `/redactions/${(await createBox(instance, pdfDoc)).id}` },
    {
      name: 'review-decisions',
      method: 'POST',
      url: async () => `/documents/${pdfDoc}/review-decisions`,
      body: async () => ({ decisions: [{ redaction_id: (await createBox(instance, pdfDoc)).id, decision: 'reject' }] }),
    },
  ];

  it.each(foreign)('$name answers 404 resource_not_found and changes nothing', async ({ method, url, body }) => {
    const path = await url();
    const payload = body ? await body() : undefined;
    const listBefore = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${pdfDoc}/redactions?limit=100` }), Redaction).data;
    const before = await storeCounts(instance);
    errorOf(await call(method, path, payload, keyOf(instance, 1)), 404, 'resource_not_found');
    expect(await storeCounts(instance)).toEqual(before);
    const listAfter = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${pdfDoc}/redactions?limit=100` }), Redaction).data;
    expect(listAfter).toEqual(listBefore);
  });

  it("organization 2's review decisions cannot name organization 1's boxes from its own document", async () => {
    const theirs = await newDocument(instance, 'pdf', 1);
    const mine = await createBox(instance, pdfDoc, rect({ state: 'pending', pending_reason: { entity: 'X' } }));
    const error = errorOf(await call('POST', `/documents/${theirs}/review-decisions`, { decisions: [{ redaction_id: mine.id, decision: 'accept' }] }, keyOf(instance, 1)), 400, 'validation_error');
    expect(detailFields(error)).toEqual(['decisions.0.redaction_id']);
    expect((await readBox(instance, mine.id)).state).toBe('pending');
  });
});

describe('audit records and events', () => {
  const EventPayload = z.object({
    document_id: z.string(),
    layer: z.string(),
    version: z.number().int(),
    version_id: z.string(),
    created: z.array(z.string()),
    updated: z.array(z.string()),
    deleted: z.array(z.string()),
  });

  async function changesOf(documentId: string) {
    const events = (await eventsOf(instance, 'document', documentId)).filter((event) => event.type === 'redactions.changed');
    return events.map((event) => EventPayload.parse(event.payload));
  }

  async function auditsOf(documentId: string) {
    return (await auditOf(instance, 'document', documentId)).filter((record) => record.action === 'redactions.write');
  }

  it('create, patch, review and delete each write an audit record and a redactions.changed event', async () => {
    const documentId = await newDocument(instance);
    const [a, b] = (await createBoxes(instance, documentId, [rect(), rect({ layer: 'B7', state: 'pending', pending_reason: { entity: 'X' } })])) as [Redaction, Redaction];
    dataOf(await patch(a.id, { reason: 'edited' }), Redaction);
    dataOf(await decide(documentId, { decisions: [{ redaction_id: b.id, decision: 'accept' }] }), Decisions, 201);
    expect((await instance.request({ method: 'DELETE', url: `/api/v1/redactions/${a.id}` })).statusCode).toBe(204);

    const versions = await layerVersionsOf(instance, documentId);
    const changes = await changesOf(documentId);
    expect(changes).toEqual(
      versions.map((version) => expect.objectContaining({ document_id: documentId, layer: version.layer, version: version.version, version_id: version.version_id })),
    );
    expect(changes.map((change) => [change.layer, change.created, change.updated, change.deleted])).toEqual([
      ['B6', [a.redaction_id], [], []],
      ['B7', [b.redaction_id], [], []],
      ['B6', [], [a.redaction_id], []],
      ['B7', [], [b.redaction_id], []],
      ['B6', [], [], [a.redaction_id]],
    ]);

    const audits = await auditsOf(documentId);
    expect(audits).toHaveLength(5);
    const actorId = apiActor.split(':')[1];
    for (const record of audits) expect([record.actor_type, record.actor_id, record.request_id === null]).toEqual(['api_key', actorId, false]);
  });

  it('refused changes write neither', async () => {
    const documentId = await newDocument(instance);
    const box = await createBox(instance, documentId);
    const events = (await changesOf(documentId)).length;
    const audits = (await auditsOf(documentId)).length;
    errorOf(await post(documentId, { redactions: [rect({ kind: 'circle' })] }), 400, 'validation_error');
    errorOf(await patch(box.id, { kind: 'polygon' }), 400, 'validation_error');
    errorOf(await decide(documentId, { decisions: [{ redaction_id: '999999', decision: 'accept' }] }), 400, 'validation_error');
    expect((await changesOf(documentId)).length).toBe(events);
    expect((await auditsOf(documentId)).length).toBe(audits);
  });
});

