import { createHash } from 'node:crypto';
import type { Executor } from '../../db/queries/executor.js';
import { listDocumentRedactions } from '../../db/queries/redactions.js';
import { ENTITY_INFO, type DetectionFinding, type EntityKind, type FindingBox } from '../../common/schemas/detection.js';
import type { Layer } from '../../common/redaction-catalog.js';
import type { ServiceContext } from '../context.js';
import { foreignLocks, writeLayer } from './layer-writer.js';
import type { BoxInput } from './model.js';

/** How a detection run files its suggestions. */
export interface SuggestionPolicy {
  jobId: number;
  source: 'pdf' | 'image';
  /** Every suggestion on this layer (a template's); otherwise each kind's default layer. */
  layer: Layer | null;
  /** Stored as the box's reason, e.g. "(b)(7)(C)". */
  reason: string | null;
  template: string | null;
}

export interface StagedSuggestions {
  suggested: number;
  already_present: number;
  by_layer: Record<string, number>;
  locked_layers: string[];
  suggestions: { redaction_id: string; entity: EntityKind; layer: Layer; page: number; score: number; rule?: string }[];
}

/** Hex of SHA-256 laid out as a UUID (version nibble 5, RFC 4122 variant): stable for the same input. */
/** A UUID (version 5 layout) derived from a text: the same text always gives the same id. */
export function uuidFrom(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const joined = hex.join('');
  return `${joined.slice(0, 8)}-${joined.slice(8, 12)}-${joined.slice(12, 16)}-${joined.slice(16, 20)}-${joined.slice(20)}`;
}

/** The redaction id of a suggested box: the same document, kind, page and box always give the same id. */
export function suggestionId(documentId: number, entity: EntityKind, page: number, box: FindingBox): string {
  return uuidFrom(`obscura-detection|${documentId}|${entity}|${page}|${box.x1.toFixed(2)}|${box.y1.toFixed(2)}|${box.x2.toFixed(2)}|${box.y2.toFixed(2)}`);
}

function area(box: FindingBox): number {
  return Math.max(0, box.x2 - box.x1) * Math.max(0, box.y2 - box.y1);
}

/** Share of `inner` covered by `outer`. */
function coverage(inner: FindingBox, outer: FindingBox): number {
  const overlap = { x1: Math.max(inner.x1, outer.x1), y1: Math.max(inner.y1, outer.y1), x2: Math.min(inner.x2, outer.x2), y2: Math.min(inner.y2, outer.y2) };
  const own = area(inner);
  return own > 0 ? area(overlap) / own : 0;
}

/**
 * Writes findings as pending redactions, one per box, with their reason for review. A box whose id is on
 * the document already (an earlier suggestion, pending, accepted or rejected) or that an existing box of
 * the same page already covers is not suggested again. Layers another editor holds are skipped and named.
 * Call inside a transaction.
 */
export async function stageSuggestions(db: Executor, ctx: ServiceContext, documentId: number, findings: readonly DetectionFinding[], policy: SuggestionPolicy): Promise<StagedSuggestions> {
  const existing = await listDocumentRedactions(db, documentId);
  const existingIds = new Set(existing.map((row) => row.redaction_id));
  const existingByPage = new Map<number, FindingBox[]>();
  for (const row of existing) {
    const boxes = existingByPage.get(row.page_number) ?? [];
    boxes.push(row);
    existingByPage.set(row.page_number, boxes);
  }

  const byLayer = new Map<Layer, { box: BoxInput; pendingReason: Record<string, unknown> }[]>();
  const planned: StagedSuggestions['suggestions'] = [];
  let alreadyPresent = 0;
  const seen = new Set<string>();
  for (const finding of findings) {
    const layer = policy.layer ?? ENTITY_INFO[finding.entity].layer;
    const ids = finding.boxes.map((box) => suggestionId(documentId, finding.entity, finding.page, box));
    // The boxes of one match share a group id, so a reviewer can accept a wrapped address at once.
    const match = ids.length > 1 ? uuidFrom(ids.join('|')) : (ids[0] ?? '');
    finding.boxes.forEach((box, index) => {
      const redactionId = ids[index] as string;
      if (seen.has(redactionId)) return;
      seen.add(redactionId);
      if (existingIds.has(redactionId) || (existingByPage.get(finding.page) ?? []).some((other) => coverage(box, other) >= 0.9)) {
        alreadyPresent += 1;
        return;
      }
      const pendingReason: Record<string, unknown> = {
        source: 'detection',
        entity: finding.entity,
        label: ENTITY_INFO[finding.entity].label,
        score: finding.score,
        cues: finding.cues,
        job_id: String(policy.jobId),
        match_id: match,
        ...(finding.pattern !== undefined && { pattern: finding.pattern }),
        ...(finding.rule !== undefined && { rule: finding.rule }),
        ...(policy.template !== null && { template: policy.template }),
      };
      const input: BoxInput = {
        redactionId,
        source: policy.source,
        layer,
        kind: 'rectangle',
        page: finding.page,
        x1: box.x1,
        y1: box.y1,
        x2: box.x2,
        y2: box.y2,
        points: [],
        reason: policy.reason,
        classificationType: null,
      };
      const staged = byLayer.get(layer) ?? [];
      staged.push({ box: input, pendingReason });
      byLayer.set(layer, staged);
      planned.push({ redaction_id: redactionId, entity: finding.entity, layer, page: finding.page, score: finding.score, ...(finding.rule !== undefined && { rule: finding.rule }) });
    });
  }

  const locked = new Set((await foreignLocks(db, ctx, documentId, [...byLayer.keys()])).map((lock) => lock.layer));
  const byLayerCount: Record<string, number> = {};
  for (const [layer, staged] of byLayer) {
    if (locked.has(layer)) continue;
    const result = await writeLayer(db, ctx, documentId, layer, { staged }, { origin: 'detection' });
    byLayerCount[layer] = result.created.length;
  }
  const suggestions = planned.filter((suggestion) => !locked.has(suggestion.layer));
  return { suggested: suggestions.length, already_present: alreadyPresent, by_layer: byLayerCount, locked_layers: [...locked].sort(), suggestions };
}
