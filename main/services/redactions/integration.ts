import { assertPagesExist } from './page-range.js';
import type { Executor } from '../../db/queries/executor.js';
import { findRedaction, findRedactionsByIds, listDocumentRedactions, pageDocumentRedactions } from '../../db/queries/redactions.js';
import { insertReviewDecision, listLatestDecisions } from '../../db/queries/review-decisions.js';
import type { PageRequest } from '../../db/queries/page.js';
import { DomainError, type ErrorDetail } from '../../common/errors.js';
import { LAYER_INFO, REDACTION_KINDS, REDACTION_TOOLS, type Layer } from '../../common/redaction-catalog.js';
import type { CreateRedactionItem, PatchRedactionBody, Redaction, RedactionType, ReviewDecision } from '../../common/schemas/redactions.js';
import { randomUUID } from 'node:crypto';
import { isoNow, type ServiceContext } from '../context.js';
import { requireDocument } from '../documents.js';
import { checkBox, sourceForDocumentType, type Source } from './app-items.js';
import { writeLayer } from './layer-writer.js';
import { boundsOf, boxFromRow, type Box, type BoxInput } from './model.js';

const UNITS: Record<Source, 'pdf_points' | 'image_pixels'> = { pdf: 'pdf_points', image: 'image_pixels' };

type Decision = Awaited<ReturnType<typeof listLatestDecisions>>[number];

export function toRedaction(box: Box, decision?: Decision): Redaction {
  return {
    id: String(box.rowId),
    document_id: String(box.documentId),
    redaction_id: box.redactionId,
    kind: box.kind,
    layer: box.layer,
    exemption: LAYER_INFO[box.layer].exemption,
    reason: box.reason,
    classification_type: box.classificationType,
    state: box.state,
    pending_reason: box.pendingReason,
    coordinates: { page: box.page, units: UNITS[box.source], box: { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2 }, points: box.points },
    version_id: box.versionId,
    review: decision
      ? { decision: decision.decision, reason: decision.reason, decided_by: `${decision.actor_type}:${decision.actor_id}`, decided_at: decision.created_at }
      : null,
    created_at: box.createdAt,
    created_by: box.createdBy,
    updated_at: box.updatedAt,
    updated_by: box.updatedBy,
  };
}

async function present(db: Executor, boxes: Box[]): Promise<Redaction[]> {
  const decisions = await listLatestDecisions(db, boxes.map((box) => box.rowId));
  const latest = new Map<number, Decision>();
  for (const decision of decisions) latest.set(decision.redaction_row_id, decision);
  return boxes.map((box) => toRedaction(box, latest.get(box.rowId)));
}

/** Integration coordinates → the store's box, with the same rules the application API applies. */
function boxFromCoordinates(
  input: { kind: BoxInput['kind']; layer: Layer; reason: string | null; classificationType: string | null; redactionId: string; coordinates: CreateRedactionItem['coordinates'] },
  source: Source,
  field: string,
): BoxInput | ErrorDetail[] {
  const { coordinates } = input;
  if (coordinates.units !== UNITS[source]) {
    return [{ field: `${field}.coordinates.units`, message: `this document is ${source === 'pdf' ? 'a PDF' : 'an image'}: use ${UNITS[source]}` }];
  }
  const points = coordinates.points ?? [];
  const bounds = coordinates.box ?? (points.length > 0 ? boundsOf(points) : undefined);
  if (!bounds) return [{ field: `${field}.coordinates`, message: 'give box, or points for polygon-like kinds' }];
  const box: BoxInput = {
    redactionId: input.redactionId,
    source,
    layer: input.layer,
    kind: input.kind,
    page: coordinates.page,
    ...bounds,
    points,
    reason: input.reason,
    classificationType: input.classificationType,
  };
  // checkBox names the store's fields (x2, points); name them where this API's body carries them.
  const pointsField = `${field}.coordinates.points`;
  const renamed: Record<string, string> = {
    [`${field}.x2`]: coordinates.box ? `${field}.coordinates.box.x2` : pointsField,
    [`${field}.y2`]: coordinates.box ? `${field}.coordinates.box.y2` : pointsField,
    [`${field}.points`]: pointsField,
  };
  const problems = checkBox(box, field).map((problem) => ({ ...problem, field: renamed[problem.field] ?? problem.field }));
  return problems.length > 0 ? problems : box;
}

export async function listRedactionPage(db: Executor, ctx: ServiceContext, documentId: number, page: PageRequest) {
  await requireDocument(db, ctx, documentId);
  const result = await pageDocumentRedactions(db, ctx.actor.organizationId, documentId, page);
  return { items: await present(db, result.rows.map(boxFromRow)), nextAfterId: result.nextAfterId };
}

export async function getRedaction(db: Executor, ctx: ServiceContext, id: number): Promise<Redaction> {
  const box = await requireBox(db, ctx, id);
  return (await present(db, [box]))[0] as Redaction;
}

async function requireBox(db: Executor, ctx: ServiceContext, id: number): Promise<Box> {
  const row = await findRedaction(db, ctx.actor.organizationId, id);
  if (!row) throw new DomainError('resource_not_found', 'redaction not found');
  await requireDocument(db, ctx, row.document_id);
  return boxFromRow(row);
}

/** Creates boxes, one new version per layer touched; all or nothing. */
export async function createRedactions(db: Executor, ctx: ServiceContext, documentId: number, items: readonly CreateRedactionItem[]): Promise<Redaction[]> {
  const document = await requireDocument(db, ctx, documentId);
  const source = sourceForDocumentType(document.document_type);
  const problems: ErrorDetail[] = [];
  const byLayer = new Map<Layer, { upserts: BoxInput[]; staged: { box: BoxInput; pendingReason: Record<string, unknown> }[] }>();
  const ids = new Set<string>();
  items.forEach((item, index) => {
    const field = `redactions.${index}`;
    const redactionId = item.redaction_id ?? randomUUID();
    if (ids.has(redactionId)) problems.push({ field: `${field}.redaction_id`, message: 'appears twice in this request' });
    ids.add(redactionId);
    const box = boxFromCoordinates(
      { kind: item.kind, layer: item.layer, reason: item.reason ?? null, classificationType: item.classification_type ?? null, redactionId, coordinates: item.coordinates },
      source,
      field,
    );
    if (Array.isArray(box)) return void problems.push(...box);
    const group = byLayer.get(item.layer) ?? { upserts: [], staged: [] };
    if (item.state === 'pending') group.staged.push({ box, pendingReason: item.pending_reason ?? { source: 'api' } });
    else group.upserts.push(box);
    byLayer.set(item.layer, group);
  });
  if (problems.length > 0) throw new DomainError('validation_error', `invalid redactions: ${problems[0]?.message ?? ''}`, problems);
  const pages = items.map((item) => ({ page: item.coordinates.page }) as BoxInput);
  await assertPagesExist(db, document, pages, (index) => `redactions.${index}.coordinates.page`);
  const existing = await findExistingClientIds(db, documentId, [...ids]);
  if (existing.length > 0) {
    throw new DomainError('conflict', `redaction_id already exists on this document: ${existing.join(', ')}`, existing.map((id) => ({ field: 'redaction_id', message: id })));
  }
  const created: Box[] = [];
  for (const [layer, group] of byLayer) {
    const result = await writeLayer(db, ctx, documentId, layer, group, { origin: 'api' });
    const wanted = new Set(result.created);
    created.push(...result.boxes.filter((box) => wanted.has(box.redactionId)));
  }
  const order = new Map([...ids].map((id, index) => [id, index]));
  created.sort((a, b) => (order.get(a.redactionId) ?? 0) - (order.get(b.redactionId) ?? 0));
  return present(db, created);
}

async function findExistingClientIds(db: Executor, documentId: number, ids: string[]): Promise<string[]> {
  const wanted = new Set(ids);
  return (await listDocumentRedactions(db, documentId)).filter((row) => wanted.has(row.redaction_id)).map((row) => row.redaction_id);
}

export async function patchRedaction(db: Executor, ctx: ServiceContext, id: number, body: PatchRedactionBody): Promise<Redaction> {
  const box = await requireBox(db, ctx, id);
  const source = box.source;
  const coordinates = body.coordinates ?? { page: box.page, units: UNITS[source], box: { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2 }, points: box.points };
  const next = boxFromCoordinates(
    {
      kind: body.kind ?? box.kind,
      layer: box.layer,
      reason: body.reason === undefined ? box.reason : body.reason,
      classificationType: body.classification_type === undefined ? box.classificationType : body.classification_type,
      redactionId: box.redactionId,
      coordinates,
    },
    source,
    'body',
  );
  if (Array.isArray(next)) throw new DomainError('validation_error', `invalid redaction: ${next[0]?.message ?? ''}`, next);
  await writeLayer(db, ctx, box.documentId, box.layer, { upserts: [next] }, { origin: 'api' });
  return getRedaction(db, ctx, id);
}

export async function deleteRedaction(db: Executor, ctx: ServiceContext, id: number): Promise<void> {
  const box = await requireBox(db, ctx, id);
  await writeLayer(db, ctx, box.documentId, box.layer, { deletes: [box.redactionId] }, { origin: 'api' });
}

/** Records each decision (who, when, why) and moves the boxes to accepted or rejected; all or nothing. */
export async function recordReviewDecisions(
  db: Executor,
  ctx: ServiceContext,
  documentId: number,
  decisions: readonly { redaction_id: string; decision: 'accept' | 'reject'; reason?: string | undefined }[],
): Promise<ReviewDecision[]> {
  await requireDocument(db, ctx, documentId);
  const rowIds = decisions.map((decision) => Number(decision.redaction_id));
  const rows = await findRedactionsByIds(db, ctx.actor.organizationId, documentId, rowIds);
  const byId = new Map(rows.map((row) => [row.id, boxFromRow(row)]));
  const missing = decisions.flatMap((decision, index) =>
    byId.has(Number(decision.redaction_id)) ? [] : [{ field: `decisions.${index}.redaction_id`, message: `no redaction ${decision.redaction_id} on this document` }],
  );
  if (missing.length > 0) throw new DomainError('validation_error', 'decisions name redactions this document does not have', missing);
  const byLayer = new Map<Layer, { redactionId: string; state: 'accepted' | 'rejected' }[]>();
  for (const decision of decisions) {
    const box = byId.get(Number(decision.redaction_id)) as Box;
    const states = byLayer.get(box.layer) ?? [];
    states.push({ redactionId: box.redactionId, state: decision.decision === 'accept' ? 'accepted' : 'rejected' });
    byLayer.set(box.layer, states);
  }
  for (const [layer, states] of byLayer) await writeLayer(db, ctx, documentId, layer, { states }, { origin: 'review' });
  const now = isoNow(ctx);
  const recorded: ReviewDecision[] = [];
  for (const decision of decisions) {
    const rowId = Number(decision.redaction_id);
    const id = await insertReviewDecision(db, {
      organization_id: ctx.actor.organizationId,
      document_id: documentId,
      redaction_row_id: rowId,
      decision: decision.decision,
      reason: decision.reason ?? null,
      actor_type: ctx.actor.type,
      actor_id: ctx.actor.id,
      created_at: now,
    });
    recorded.push({
      id: String(id),
      redaction_id: decision.redaction_id,
      decision: decision.decision,
      reason: decision.reason ?? null,
      decided_by: `${ctx.actor.type}:${ctx.actor.id}`,
      decided_at: now,
      state: decision.decision === 'accept' ? 'accepted' : 'rejected',
    });
  }
  return recorded;
}

export function redactionTypes(): RedactionType[] {
  return REDACTION_KINDS.map((kind) => {
    const own = REDACTION_TOOLS.find((tool) => tool.tool === kind);
    return {
      kind,
      label: own?.label ?? kind,
      geometry: (own?.min_points ?? 0) > 0 ? 'points' : 'box',
      min_points: own?.min_points ?? 0,
      tools: REDACTION_TOOLS.filter((tool) => tool.kind === kind).map((tool) => tool.tool),
    };
  });
}
