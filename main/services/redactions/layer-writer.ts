import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/queries/executor.js';
import { findLayerLocks } from '../../db/queries/layer-locks.js';
import { findLatestLayerVersion, insertLayerVersion } from '../../db/queries/layer-versions.js';
import { deleteRedactionsByRowIds, insertRedactions, listLayerRedactions, updateRedaction } from '../../db/queries/redactions.js';
import { DomainError } from '../../common/errors.js';
import type { Layer, RedactionState } from '../../common/redaction-catalog.js';
import { recordChange } from '../change-log.js';
import { isoNow, type ServiceContext } from '../context.js';
import { requireDocument } from '../documents.js';
import { boxFromRow, snapshotJson, storedBox, type Box, type BoxInput } from './model.js';
import { assertPagesExist } from './page-range.js';

export type WriteOrigin = 'app' | 'api' | 'review' | 'detection';

export interface LayerChange {
  /** Boxes drawn or edited by a person: new ones are created accepted, existing ones keep their state. */
  upserts?: readonly BoxInput[];
  /** Suggestions: created pending with their reason; an existing box with the same id is left alone. */
  staged?: readonly { box: BoxInput; pendingReason: Record<string, unknown> }[];
  /** Client ids to remove. */
  deletes?: readonly string[];
  /** Review outcomes by client id. */
  states?: readonly { redactionId: string; state: RedactionState }[];
}

export interface WriteOptions {
  origin: WriteOrigin;
  /** Optimistic concurrency: the version the client edited (null: it saw none). Undefined skips the check. */
  baseVersionId?: string | null | undefined;
}

export interface LayerWriteResult {
  layer: Layer;
  version: number;
  versionId: string;
  created: string[];
  updated: string[];
  deleted: string[];
  /** Every box of the layer after the write. */
  boxes: Box[];
}

export interface LayerLockInfo {
  layer: string;
  user_id: number;
  locked_by: string;
  locked_by_name: string;
  acquired_at: string;
  expires_at: string;
}

/** The caller's user id when a person is acting; API keys and the system never hold locks. */
function actingUserId(ctx: ServiceContext): number | null {
  return ctx.actor.type === 'user' ? Number(ctx.actor.id) : null;
}

/** Live locks of a document held by someone other than the caller. */
export async function foreignLocks(db: Executor, ctx: ServiceContext, documentId: number, layers: readonly string[]): Promise<LayerLockInfo[]> {
  const now = ctx.clock.now().getTime();
  const me = actingUserId(ctx);
  const locks = await findLayerLocks(db, documentId);
  return locks
    .filter((lock) => layers.includes(lock.layer) && Date.parse(lock.expires_at) > now && lock.user_id !== me)
    .map((lock) => ({
      layer: lock.layer,
      user_id: lock.user_id,
      locked_by: lock.username,
      locked_by_name: lock.display_name,
      acquired_at: lock.acquired_at,
      expires_at: lock.expires_at,
    }));
}

/** Throws 423 when another editor holds any of the layers. */
export async function assertLayersWritable(db: Executor, ctx: ServiceContext, documentId: number, layers: readonly string[]): Promise<void> {
  const held = await foreignLocks(db, ctx, documentId, layers);
  const first = held[0];
  if (!first) return;
  throw new DomainError('locked', `layer ${first.layer} is being edited by ${first.locked_by_name} until ${first.expires_at}`, undefined, {
    locked_layers: held.map((lock) => lock.layer),
    locked_by: first.locked_by,
    locked_by_name: first.locked_by_name,
    locked_by_user_id: first.user_id,
    expires_at: first.expires_at,
    layer: first.layer,
    locks: held,
  });
}

function rowValues(box: BoxInput) {
  return {
    source: box.source,
    layer: box.layer,
    kind: box.kind,
    page_number: box.page,
    x1: box.x1,
    y1: box.y1,
    x2: box.x2,
    y2: box.y2,
    points: JSON.stringify(box.points),
    reason: box.reason,
    classification_type: box.classificationType,
  };
}

/**
 * The one way boxes change, whichever API asks: checks the layer lock and the base version, applies the
 * change, and writes a new immutable version of the layer holding every box it now has. Call inside a
 * transaction; SQLite's single writer makes check-then-write atomic, and the unique (document, layer,
 * version) index backs that up.
 */
export async function writeLayer(
  db: Executor,
  ctx: ServiceContext,
  documentId: number,
  layer: Layer,
  change: LayerChange,
  options: WriteOptions,
): Promise<LayerWriteResult> {
  await assertLayersWritable(db, ctx, documentId, [layer]);
  // Every path that stores boxes passes here: none may name a page the document does not have.
  const written = [...(change.upserts ?? []), ...(change.staged ?? []).map((entry) => entry.box)];
  if (written.length > 0) {
    await assertPagesExist(db, await requireDocument(db, ctx, documentId), written, (index) => `${written[index]?.redactionId ?? index}.page_number`);
  }
  const latest = await findLatestLayerVersion(db, documentId, layer);
  if (options.baseVersionId !== undefined && options.baseVersionId !== (latest?.version_id ?? null)) {
    throw new DomainError('conflict', `layer ${layer} has changed since version ${options.baseVersionId ?? '(none)'}; reload and re-apply`, undefined, {
      currentVersion: latest ? { version_id: latest.version_id, version: latest.version, layer } : null,
    });
  }
  const version = (latest?.version ?? 0) + 1;
  const versionId = randomUUID();
  const now = isoNow(ctx);
  const actor = `${ctx.actor.type}:${ctx.actor.id}`;
  const current = new Map((await listLayerRedactions(db, documentId, layer)).map((row) => [row.redaction_id, boxFromRow(row)]));
  const created: string[] = [];
  const updated: string[] = [];
  const deleted: string[] = [];
  const inserts: { box: BoxInput; state: RedactionState; pendingReason: Record<string, unknown> | null }[] = [];
  const inserting = new Set<string>();
  const stamp = { versionId, updatedAt: now, updatedBy: actor };

  for (const box of change.upserts ?? []) {
    const existing = current.get(box.redactionId);
    if (existing) {
      await updateRedaction(db, existing.rowId, { ...rowValues(box), version_id: versionId, updated_at: now, updated_by: actor });
      current.set(box.redactionId, storedBox(box, existing, stamp));
      updated.push(box.redactionId);
    } else if (!inserting.has(box.redactionId)) {
      inserting.add(box.redactionId);
      inserts.push({ box, state: 'accepted', pendingReason: null });
      created.push(box.redactionId);
    }
  }
  for (const { box, pendingReason } of change.staged ?? []) {
    if (current.has(box.redactionId) || inserting.has(box.redactionId)) continue;
    inserting.add(box.redactionId);
    inserts.push({ box, state: 'pending', pendingReason });
    created.push(box.redactionId);
  }
  const rowIds = await insertRedactions(
    db,
    inserts.map(({ box, state, pendingReason }) => ({
      organization_id: ctx.actor.organizationId,
      document_id: documentId,
      redaction_id: box.redactionId,
      ...rowValues(box),
      state,
      pending_reason: pendingReason ? JSON.stringify(pendingReason) : null,
      version_id: versionId,
      created_at: now,
      created_by: actor,
      updated_at: now,
      updated_by: actor,
    })),
  );
  inserts.forEach(({ box, state, pendingReason }, index) => {
    const rowId = rowIds[index];
    if (rowId === undefined) throw new Error('insert returned fewer ids than rows');
    current.set(box.redactionId, storedBox(box, { rowId, documentId, state, pendingReason, createdAt: now, createdBy: actor }, stamp));
  });
  for (const { redactionId, state } of change.states ?? []) {
    const existing = current.get(redactionId);
    if (!existing) throw new DomainError('resource_not_found', `redaction ${redactionId} not found in layer ${layer}`);
    await updateRedaction(db, existing.rowId, { state, version_id: versionId, updated_at: now, updated_by: actor });
    current.set(redactionId, storedBox(existing, { ...existing, state }, stamp));
    updated.push(redactionId);
  }
  const deleteRowIds: number[] = [];
  for (const redactionId of change.deletes ?? []) {
    const existing = current.get(redactionId);
    if (!existing) throw new DomainError('resource_not_found', `redaction ${redactionId} not found in layer ${layer}`);
    deleteRowIds.push(existing.rowId);
    current.delete(redactionId);
    deleted.push(redactionId);
  }
  await deleteRedactionsByRowIds(db, deleteRowIds);

  // The snapshot is the layer's whole state; the rows above and it change together in this transaction.
  const boxes = [...current.values()].sort((a, b) => a.rowId - b.rowId);
  await insertLayerVersion(db, {
    organization_id: ctx.actor.organizationId,
    document_id: documentId,
    layer,
    version,
    version_id: versionId,
    created_at: now,
    created_by: actor,
    origin: options.origin,
    summary: JSON.stringify({ created, updated, deleted, count: boxes.length }),
    snapshot: snapshotJson(boxes),
  });
  await recordChange(db, ctx, {
    action: 'redactions.write',
    resourceType: 'document',
    resourceId: documentId,
    details: { layer, version, version_id: versionId, origin: options.origin, created: created.length, updated: updated.length, deleted: deleted.length },
    event: {
      type: 'redactions.changed',
      payload: { document_id: String(documentId), layer, version, version_id: versionId, origin: options.origin, created, updated, deleted },
    },
  });
  return { layer, version, versionId, created, updated, deleted, boxes };
}
