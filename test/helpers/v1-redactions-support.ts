import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ALL_SCOPES, type Scope } from '../../main/common/scopes.js';
import { Redaction } from '../../main/common/schemas/redactions.js';
import { issueApiKey } from '../../main/services/api-keys.js';
import { countRows } from './rows.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from './instance.js';
import { minimalPdf } from './temp.js';
import { dataOf, keyOf, orgId, tinyPng } from './integration-support.js';

// Fixtures for the integration API's redaction and comment suites: documents, boxes, scoped keys, row counts.

/** A test instance with rate limits lifted: these suites send far more than 60 requests per key. */
export function startUnlimitedInstance(): Promise<TestInstance> {
  return startInstance({ config: { rateLimits: { enabled: false } } });
}

/** Uploads one PDF (or PNG) into a new case of organization `org` and returns the document id. */
export async function newDocument(instance: TestInstance, type: 'pdf' | 'png' = 'pdf', org = 0): Promise<string> {
  const key = keyOf(instance, org);
  const caseId = await createCase(instance, `Case for a ${type}`, key);
  const bytes = type === 'pdf' ? minimalPdf() : tinyPng();
  const [document] = await uploadDocuments(instance, caseId, [{ name: `file.${type}`, bytes }], key);
  if (!document) throw new Error('upload produced no document');
  return document.id;
}

export interface BoxItem {
  kind: string;
  layer: string;
  coordinates: { page: number; units: string; box?: { x1: number; y1: number; x2: number; y2: number }; points?: { x: number; y: number }[] };
  reason?: string | null;
  redaction_id?: string;
  classification_type?: string;
  state?: string;
  pending_reason?: Record<string, unknown>;
}

/** A rectangle on page 1 in PDF points, layer B6, with a fresh client id; override any field. */
export function rect(overrides: Partial<BoxItem> = {}): BoxItem {
  return {
    kind: 'rectangle',
    layer: 'B6',
    coordinates: { page: 1, units: 'pdf_points', box: { x1: 10, y1: 20, x2: 110, y2: 60 } },
    reason: 'home address',
    redaction_id: `r-${randomUUID()}`,
    ...overrides,
  };
}

/** A triangle outline of kind `kind` in the given units. */
export function polygon(kind = 'polygon', units = 'pdf_points', overrides: Partial<BoxItem> = {}): BoxItem {
  return rect({
    kind,
    coordinates: { page: 1, units, points: [{ x: 10, y: 10 }, { x: 60, y: 10 }, { x: 35, y: 50 }] },
    ...overrides,
  });
}

const Created = z.object({ redactions: z.array(Redaction) });

/** POSTs boxes (201 expected) and returns the created redactions. */
export async function createBoxes(instance: TestInstance, documentId: string, items: BoxItem[], key?: string): Promise<Redaction[]> {
  const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/redactions`, body: { redactions: items }, ...(key && { key }) });
  return dataOf(response, Created, 201).redactions;
}

/** Creates one box and returns it. */
export async function createBox(instance: TestInstance, documentId: string, item: BoxItem = rect(), key?: string): Promise<Redaction> {
  const [created] = await createBoxes(instance, documentId, [item], key);
  if (!created) throw new Error('no redaction created');
  return created;
}

/** Reads one redaction through GET /redactions/{id} (200 expected). */
export async function readBox(instance: TestInstance, id: string): Promise<Redaction> {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/redactions/${id}` }), Redaction);
}

/** The id of the service account created with organization `org`. */
export async function serviceAccountOf(instance: TestInstance, org = 0): Promise<number> {
  const row = await instance.runtime.db.selectFrom('service_accounts').select('id').where('organization_id', '=', orgId(instance, org)).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Issues a key of organization `org` holding exactly `scopes`. */
export async function keyWithScopes(instance: TestInstance, scopes: readonly Scope[], org = 0): Promise<string> {
  const issued = await issueApiKey(instance.runtime.db, {
    organizationId: orgId(instance, org),
    serviceAccountId: await serviceAccountOf(instance, org),
    name: `scoped ${scopes.join(' ')}`,
    scopes,
    expiresAt: null,
    now: new Date().toISOString(),
  });
  return issued.plaintext;
}

export function everyScopeBut(scope: Scope): Scope[] {
  return ALL_SCOPES.filter((other) => other !== scope);
}

const TABLES = ['redactions', 'layer_versions', 'review_decisions', 'comments', 'audit_log', 'outbox_events'] as const;

/** Row counts of the tables redaction and comment requests write, to show a refused request wrote nothing. */
export async function storeCounts(instance: TestInstance): Promise<Record<(typeof TABLES)[number], number>> {
  const entries = await Promise.all(TABLES.map(async (table) => [table, await countRows(instance.runtime.db, table)] as const));
  return Object.fromEntries(entries) as Record<(typeof TABLES)[number], number>;
}

/** Layer versions of a document, oldest first. */
export function layerVersionsOf(instance: TestInstance, documentId: string) {
  return instance.runtime.db
    .selectFrom('layer_versions')
    .select(['layer', 'version', 'version_id', 'origin', 'created_by'])
    .where('document_id', '=', Number(documentId))
    .orderBy('id')
    .execute();
}
