import { assertPagesExist } from './page-range.js';
import type { Executor } from '../../db/queries/executor.js';
import type { DocumentRow } from '../../db/schema.js';
import { acquireLayerLock, findLayerLocks, releaseLayerLock } from '../../db/queries/layer-locks.js';
import { findLatestLayerVersion, findLayerVersion, listLatestLayerSnapshots, listLayerVersions } from '../../db/queries/layer-versions.js';
import { findRedactionsByClientId, listDocumentRedactions, listLayerRedactions } from '../../db/queries/redactions.js';
import { DomainError, type ErrorDetail } from '../../common/errors.js';
import { LAYER_INFO, LAYERS, REDACTION_KINDS, REDACTION_TOOLS, CLASSIFICATION_TYPES, isLayer, type Layer } from '../../common/redaction-catalog.js';
import { isoNow, type ServiceContext } from '../context.js';
import { requireDocument } from '../documents.js';
import { parseAppItem, parseSaveItems, sourceForDocumentType } from './app-items.js';
import { assertLayersWritable, foreignLocks, writeLayer } from './layer-writer.js';
import { boxFromRow, toAppRecord, type Box, type BoxInput } from './model.js';

export function parseLayersQuery(value: string | undefined): Layer[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const names = value.split(',').map((name) => name.trim().toUpperCase());
  const invalid = names.filter((name) => !isLayer(name));
  if (invalid.length > 0) {
    throw new DomainError('validation_error', `invalid layer ${invalid.join(', ')}; layers are ${LAYERS.join(', ')}`, [{ field: 'layers', message: `unknown layer ${invalid.join(', ')}` }]);
  }
  return names as Layer[];
}

export function requireLayer(value: string): Layer {
  const layer = value.toUpperCase();
  if (!isLayer(layer)) throw new DomainError('validation_error', `invalid layer ${value}; layers are ${LAYERS.join(', ')}`, [{ field: 'layer', message: 'unknown layer' }]);
  return layer;
}

/** POST /api/redactions/{docId}: one layer, optimistic on versionInfo.versionId. */
/** versionInfo is optional; when given it is an object whose versionId is a string or null. */
function parseBaseVersionId(versionInfo: unknown): string | null {
  if (versionInfo === undefined || versionInfo === null) return null;
  if (typeof versionInfo !== 'object' || Array.isArray(versionInfo)) {
    throw new DomainError('validation_error', 'versionInfo must be an object', [{ field: 'versionInfo', message: 'an object with versionId is expected' }]);
  }
  const versionId = (versionInfo as { versionId?: unknown }).versionId;
  if (versionId === undefined || versionId === null) return null;
  if (typeof versionId !== 'string') {
    throw new DomainError('validation_error', 'versionInfo.versionId must be a string or null', [{ field: 'versionInfo.versionId', message: 'a string or null' }]);
  }
  return versionId;
}

export async function saveLayer(db: Executor, ctx: ServiceContext, documentId: number, body: { redactions?: unknown; versionInfo?: unknown }) {
  const document = await requireDocument(db, ctx, documentId);
  const { layer, boxes } = parseSaveItems(body.redactions, sourceForDocumentType(document.document_type));
  await assertPagesExist(db, document, boxes, (index) => `redactions.${index}.page_number`);
  // Omitting versionInfo means "first save": once the layer has a version, the client must name it.
  const baseVersionId = parseBaseVersionId(body.versionInfo);
  const result = await writeLayer(db, ctx, documentId, layer, { upserts: boxes }, { origin: 'app', baseVersionId });
  return {
    success: true as const,
    message: `Saved ${boxes.length} redaction(s)`,
    count: boxes.length,
    version_id: result.versionId,
    version: result.version,
    layer,
  };
}

/**
 * GET /api/redactions/{docId}, as the parts of its JSON body. The latest version snapshot of each layer holds
 * exactly the layer's current records (every change goes through writeLayer), so the list is those
 * snapshots spliced together as bytes: no per-box work and no string decoding, which keeps a 10,000-box
 * document fast. Records come grouped by layer, in creation order within a layer.
 */
export async function listRedactionsJson(db: Executor, ctx: ServiceContext, documentId: number, layers: Layer[] | undefined, requestId: string): Promise<Buffer[]> {
  await requireDocument(db, ctx, documentId);
  const latest = await listLatestLayerSnapshots(db, documentId, layers);
  let count = 0;
  const parts: Buffer[] = [Buffer.from('{"success":true,"redactions":[')];
  let first = true;
  for (const version of latest) {
    count += (JSON.parse(version.summary) as { count: number }).count;
    // Strip the snapshot's own brackets ("[" and "]" are one byte each in UTF-8).
    const inner = version.snapshot.subarray(1, version.snapshot.length - 1);
    if (inner.length === 0) continue;
    if (!first) parts.push(COMMA);
    parts.push(inner);
    first = false;
  }
  const versions = Object.fromEntries(latest.map((version) => [version.layer, { version_id: version.version_id, version: version.version }]));
  parts.push(
    Buffer.from(
      `],"count":${count},"allowedLayers":${JSON.stringify(LAYERS)},"version_ids":${JSON.stringify(latest.map((version) => version.version_id))},` +
        `"versions":${JSON.stringify(versions)},"request_id":${JSON.stringify(requestId)}}`,
    ),
  );
  return parts;
}

const COMMA = Buffer.from(',');

export async function getLayer(db: Executor, ctx: ServiceContext, documentId: number, layer: Layer) {
  await requireDocument(db, ctx, documentId);
  const latest = await findLatestLayerVersion(db, documentId, layer);
  const rows = await listLayerRedactions(db, documentId, layer);
  const locks = await foreignLocks(db, ctx, documentId, [layer]);
  return {
    success: true as const,
    layer,
    version_id: latest?.version_id ?? null,
    version: latest?.version ?? 0,
    redactions: rows.map((row) => toAppRecord(boxFromRow(row))),
    count: rows.length,
    lock: locks[0] ?? null,
  };
}

export async function listVersions(db: Executor, ctx: ServiceContext, documentId: number, layer: Layer) {
  await requireDocument(db, ctx, documentId);
  const versions = await listLayerVersions(db, documentId, layer);
  return {
    success: true as const,
    layer,
    versions: versions.map((version) => ({
      version: version.version,
      version_id: version.version_id,
      created_at: version.created_at,
      created_by: version.created_by,
      origin: version.origin,
      summary: JSON.parse(version.summary) as Record<string, unknown>,
    })),
  };
}

export async function getVersion(db: Executor, ctx: ServiceContext, documentId: number, layer: Layer, versionId: string) {
  await requireDocument(db, ctx, documentId);
  const version = await findLayerVersion(db, documentId, layer, versionId);
  if (!version) throw new DomainError('resource_not_found', `version ${versionId} of layer ${layer} not found`);
  const redactions = JSON.parse(version.snapshot) as unknown[];
  return {
    success: true as const,
    layer,
    version: version.version,
    version_id: version.version_id,
    created_at: version.created_at,
    created_by: version.created_by,
    origin: version.origin,
    redactions,
    count: redactions.length,
  };
}

const PREFIXES = { pdf: 'pdf-redaction-', image: 'image-redaction-' } as const;

/** Strips the collection prefix the client may put in front of a redaction id. */
export function parseBoxReference(reference: string): { redactionId: string; source?: 'pdf' | 'image' } {
  for (const source of ['pdf', 'image'] as const) {
    if (reference.startsWith(PREFIXES[source])) return { redactionId: reference.slice(PREFIXES[source].length), source };
  }
  return { redactionId: reference };
}

async function findBox(db: Executor, ctx: ServiceContext, reference: string, documentId?: number): Promise<Box> {
  const { redactionId, source } = parseBoxReference(reference);
  const rows = (await findRedactionsByClientId(db, ctx.actor.organizationId, redactionId, documentId)).filter((row) => !source || row.source === source);
  if (rows.length > 1) throw new DomainError('conflict', `redaction id ${redactionId} exists in several documents; pass doc_id`);
  const row = rows[0];
  if (!row) throw new DomainError('resource_not_found', `redaction ${reference} not found`);
  await requireDocument(db, ctx, row.document_id);
  return boxFromRow(row);
}

const IMMUTABLE_KEYS = ['_id', 'doc_id', 'created_at', 'created_by'];

/** Applies an update object onto a stored box and validates the result like a new item. */
function mergedBox(box: Box, updates: Record<string, unknown>, field: string): BoxInput | ErrorDetail[] {
  const cleaned = Object.fromEntries(Object.entries(updates).filter(([key]) => !IMMUTABLE_KEYS.includes(key) && key !== 'version_id'));
  if ('layer' in cleaned && cleaned.layer !== box.layer) {
    return [{ field: `${field}.layer`, message: 'a box cannot change layer; delete it and save it in the other layer' }];
  }
  if ('redaction_id' in cleaned && cleaned.redaction_id !== box.redactionId) {
    return [{ field: `${field}.redaction_id`, message: 'redaction_id cannot change' }];
  }
  const current = toAppRecord(box);
  const base = box.source === 'image' ? imageUpdateBase(current, cleaned) : current;
  return parseAppItem({ ...base, ...cleaned, redaction_id: box.redactionId }, box.source, field);
}

/**
 * Image items name some fields two ways (type / redaction_type, polygon_points / image_polygon_points,
 * x, y, width|w, height|h / image_x1..image_y2). An update in the other spelling must replace the stored
 * value rather than lose to it: the stored bounds become x, y, width, height, which the update overrides.
 */
function imageUpdateBase(current: Record<string, unknown>, updates: Record<string, unknown>): Record<string, unknown> {
  const base = { ...current };
  if ('type' in updates && !('redaction_type' in updates)) delete base.redaction_type;
  if ('polygon_points' in updates && !('image_polygon_points' in updates)) delete base.image_polygon_points;
  const bounds = ['image_x1', 'image_y1', 'image_x2', 'image_y2'] as const;
  const alternative = ['x', 'y', 'width', 'w', 'height', 'h'].some((key) => key in updates);
  if (!alternative || bounds.some((key) => key in updates)) return base;
  const [x1, y1, x2, y2] = bounds.map((key) => Number(current[key]));
  for (const key of bounds) delete base[key];
  return {
    ...base,
    x: x1,
    y: y1,
    ...(!('w' in updates) && { width: Number(x2) - Number(x1) }),
    ...(!('h' in updates) && { height: Number(y2) - Number(y1) }),
  };
}

interface BoxUpdate {
  reference: string;
  versionId: string | undefined;
  updates: Record<string, unknown>;
}

interface ItemResult {
  redaction_id: string;
  version_id: string | null;
  success: boolean;
  message: string;
}

/** Checks a per-item version_id: it must name the latest version of the box's layer. */
async function staleVersionMessage(db: Executor, box: Box, versionId: string | undefined): Promise<string | null> {
  if (versionId === undefined || versionId === null) return null;
  const latest = await findLatestLayerVersion(db, box.documentId, box.layer);
  return latest && latest.version_id !== versionId ? `stale version_id; layer ${box.layer} is at version ${latest.version} (${latest.version_id})` : null;
}

/** PUT /api/redactions/box/{id}, single form. */
export async function updateBox(db: Executor, ctx: ServiceContext, reference: string, updates: Record<string, unknown>, documentId?: number) {
  const box = await findBox(db, ctx, reference, documentId);
  const versionId = typeof updates.version_id === 'string' ? updates.version_id : undefined;
  const stale = await staleVersionMessage(db, box, versionId);
  if (stale) {
    const latest = await findLatestLayerVersion(db, box.documentId, box.layer);
    throw new DomainError('conflict', stale, undefined, { currentVersion: latest ? { version_id: latest.version_id, version: latest.version, layer: box.layer } : null });
  }
  const merged = mergedBox(box, updates, 'body');
  if (Array.isArray(merged)) throw new DomainError('validation_error', `invalid update: ${merged[0]?.message ?? ''}`, merged);
  const result = await writeLayer(db, ctx, box.documentId, box.layer, { upserts: [merged] }, { origin: 'app' });
  const saved = result.boxes.find((candidate) => candidate.redactionId === box.redactionId);
  return {
    success: true as const,
    message: 'Updated 1 redaction',
    redaction: saved ? toAppRecord(saved) : null,
    version_id: result.versionId,
    version: result.version,
  };
}

/** Batch forms of update and delete: each item succeeds or fails alone; one new version per layer touched. */
async function batch(
  db: Executor,
  ctx: ServiceContext,
  items: readonly BoxUpdate[],
  operation: 'update' | 'delete',
): Promise<ItemResult[]> {
  const results: ItemResult[] = [];
  const groups = new Map<string, { documentId: number; layer: Layer; boxes: BoxInput[]; deletes: string[]; indexes: number[] }>();
  for (const [index, item] of items.entries()) {
    try {
      const box = await findBox(db, ctx, item.reference);
      const stale = await staleVersionMessage(db, box, item.versionId);
      if (stale) throw new DomainError('conflict', stale);
      const key = `${box.documentId}:${box.layer}`;
      const group = groups.get(key) ?? { documentId: box.documentId, layer: box.layer, boxes: [], deletes: [], indexes: [] };
      if (operation === 'update') {
        // A box named twice in one list takes both updates, in order, instead of the last one undoing the first.
        const earlier = group.boxes.findIndex((candidate) => candidate.redactionId === box.redactionId);
        const merged = mergedBox(earlier >= 0 ? { ...box, ...group.boxes[earlier] } : box, item.updates, `redactionList.${index}.updates`);
        if (Array.isArray(merged)) throw new DomainError('validation_error', merged.map((problem) => problem.message).join('; '));
        if (earlier >= 0) group.boxes[earlier] = merged;
        else group.boxes.push(merged);
      } else if (!group.deletes.includes(box.redactionId)) {
        // Named twice, a box is deleted once; deleting it "again" would fail the whole layer's write.
        group.deletes.push(box.redactionId);
      }
      group.indexes.push(index);
      groups.set(key, group);
      results[index] = { redaction_id: item.reference, version_id: null, success: true, message: '' };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results[index] = { redaction_id: item.reference, version_id: item.versionId ?? null, success: false, message: error.message };
    }
  }
  for (const group of groups.values()) {
    try {
      const result = await writeLayer(db, ctx, group.documentId, group.layer, { upserts: group.boxes, deletes: group.deletes }, { origin: 'app' });
      for (const index of group.indexes) {
        results[index] = { redaction_id: items[index]?.reference ?? '', version_id: result.versionId, success: true, message: operation === 'update' ? 'Updated' : 'Deleted' };
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      for (const index of group.indexes) {
        results[index] = { redaction_id: items[index]?.reference ?? '', version_id: items[index]?.versionId ?? null, success: false, message: error.message };
      }
    }
  }
  return results;
}

export function parseRedactionList(raw: unknown, operation: 'update' | 'delete'): BoxUpdate[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new DomainError('validation_error', 'redactionList must be a non-empty array', [{ field: 'redactionList', message: 'a non-empty array is required' }]);
  }
  const problems: ErrorDetail[] = [];
  const items = raw.map((item: unknown, index): BoxUpdate => {
    const record = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    if (typeof record.redaction_id !== 'string' || record.redaction_id === '') problems.push({ field: `redactionList.${index}.redaction_id`, message: 'required string' });
    const updates = record.updates;
    if (operation === 'update' && (!updates || typeof updates !== 'object' || Array.isArray(updates))) {
      problems.push({ field: `redactionList.${index}.updates`, message: 'required object' });
    }
    return {
      reference: String(record.redaction_id ?? ''),
      versionId: typeof record.version_id === 'string' ? record.version_id : undefined,
      updates: (updates && typeof updates === 'object' ? updates : {}) as Record<string, unknown>,
    };
  });
  if (problems.length > 0) throw new DomainError('validation_error', 'invalid redactionList', problems);
  return items;
}

export async function updateBoxes(db: Executor, ctx: ServiceContext, rawList: unknown) {
  const results = await batch(db, ctx, parseRedactionList(rawList, 'update'), 'update');
  return { success: results.every((result) => result.success), results };
}

/** DELETE /api/redactions/box/{id}: the path id alone, or every item of redactionList. */
export async function deleteBoxes(db: Executor, ctx: ServiceContext, reference: string, rawList: unknown) {
  if (rawList !== undefined) {
    const results = await batch(db, ctx, parseRedactionList(rawList, 'delete'), 'delete');
    const deleted = new Set(results.filter((result) => result.success).map((result) => parseBoxReference(result.redaction_id).redactionId));
    return { success: results.every((result) => result.success), deletedCount: deleted.size, results };
  }
  const box = await findBox(db, ctx, reference);
  const result = await writeLayer(db, ctx, box.documentId, box.layer, { deletes: [box.redactionId] }, { origin: 'app' });
  return { success: true as const, message: 'Deleted 1 redaction', deletedCount: 1, version_id: result.versionId, version: result.version };
}

function canClear(ctx: ServiceContext, document: DocumentRow, isAdmin: boolean): boolean {
  return isAdmin || (ctx.actor.type === 'user' && document.owner_user_id === Number(ctx.actor.id));
}

/** DELETE /api/redactions/{docId}: admins, or the user who owns the document. */
export async function clearDocument(db: Executor, ctx: ServiceContext, documentId: number, isAdmin: boolean) {
  const document = await requireDocument(db, ctx, documentId);
  if (!canClear(ctx, document, isAdmin)) {
    throw new DomainError('permission_denied', 'only an administrator or the owner of the document may clear all its redactions');
  }
  const rows = await listDocumentRedactions(db, documentId);
  const layers = [...new Set(rows.map((row) => row.layer as Layer))].sort();
  await assertLayersWritable(db, ctx, documentId, layers);
  for (const layer of layers) {
    const ids = rows.filter((row) => row.layer === layer).map((row) => row.redaction_id);
    await writeLayer(db, ctx, documentId, layer, { deletes: ids }, { origin: 'app' });
  }
  return { success: true as const, message: `Deleted ${rows.length} redaction(s)`, deletedCount: rows.length };
}

export interface LockSettings {
  ttlSeconds: number;
}

function lockUser(ctx: ServiceContext): number {
  if (ctx.actor.type !== 'user') throw new DomainError('permission_denied', 'only signed-in users hold layer locks');
  return Number(ctx.actor.id);
}

/** Acquire (or, with mustHold, heartbeat): extends our lock; a live lock of someone else answers 423. */
export async function lockLayer(db: Executor, ctx: ServiceContext, documentId: number, layer: Layer, settings: LockSettings, mustHold: boolean) {
  await requireDocument(db, ctx, documentId);
  const userId = lockUser(ctx);
  const now = ctx.clock.now();
  if (mustHold) {
    const mine = (await findLayerLocks(db, documentId)).find(
      (lock) => lock.layer === layer && lock.user_id === userId && Date.parse(lock.expires_at) > now.getTime(),
    );
    if (!mine) {
      await assertLayersWritable(db, ctx, documentId, [layer]);
      throw new DomainError('conflict', `you do not hold the lock on layer ${layer} (it expired or was released); acquire it again`);
    }
  }
  const expiresAt = new Date(now.getTime() + settings.ttlSeconds * 1000).toISOString();
  const held = await acquireLayerLock(db, { documentId, layer, organizationId: ctx.actor.organizationId, userId, now: now.toISOString(), expiresAt });
  if (!held) await assertLayersWritable(db, ctx, documentId, [layer]);
  return { success: true as const, lock: { layer, user_id: userId, expires_at: expiresAt, timeout_seconds: settings.ttlSeconds } };
}

export async function unlockLayer(db: Executor, ctx: ServiceContext, documentId: number, layer: Layer, isAdmin: boolean) {
  await requireDocument(db, ctx, documentId);
  const userId = lockUser(ctx);
  const released = await releaseLayerLock(db, documentId, layer, isAdmin ? undefined : userId);
  if (released === 0) {
    const others = await foreignLocks(db, ctx, documentId, [layer]);
    if (others.length > 0) await assertLayersWritable(db, ctx, documentId, [layer]);
  }
  return { success: true as const, released: released > 0, layer, released_at: isoNow(ctx) };
}

export function redactionTypesCatalog() {
  return {
    success: true as const,
    tools: REDACTION_TOOLS,
    kinds: REDACTION_KINDS.map((kind) => ({
      kind,
      label: REDACTION_TOOLS.find((tool) => tool.tool === kind)?.label ?? kind,
      polygon: REDACTION_TOOLS.find((tool) => tool.tool === kind)?.min_points !== 0,
      min_points: REDACTION_TOOLS.find((tool) => tool.tool === kind)?.min_points ?? 0,
    })),
    layers: LAYERS.map((layer) => ({ layer, ...LAYER_INFO[layer], requires_classification: layer === 'B1' })),
    classification_types: [...CLASSIFICATION_TYPES],
    states: ['pending', 'accepted', 'rejected'],
  };
}
