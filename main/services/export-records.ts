import type { ReviewDecisionRow } from '../db/schema.js';
import { LAYER_INFO, LAYERS } from '../common/redaction-catalog.js';
import { toCase } from './cases.js';
import { toDocument } from './documents.js';
import type { ExportMaterial, MaterialDocument } from './export-material.js';
import { toJob } from './jobs.js';
import type { Box } from './redactions/model.js';
import { csvField } from '../common/csv.js';

// The text formats of an export: the redaction log (CSV) and the case record (JSON), also inside zips.

/** Version of the case record's shape; raised on any incompatible change (docs/api.md, Exports). */
export const CASE_RECORD_SCHEMA_VERSION = 1;

export const REDACTION_LOG_COLUMNS = [
  'document_id',
  'document_name',
  'page',
  'redaction_id',
  'client_id',
  'layer',
  'exemption',
  'classification',
  'reason',
  'kind',
  'units',
  'x1',
  'y1',
  'x2',
  'y2',
  'points',
  'state',
  'decision',
  'decided_by',
  'decided_at',
  'created_by',
  'created_at',
] as const;

function latestDecisionOf(decisions: readonly ReviewDecisionRow[]): Map<number, ReviewDecisionRow> {
  const latest = new Map<number, ReviewDecisionRow>();
  for (const decision of decisions) latest.set(decision.redaction_row_id, decision);
  return latest;
}

/** The redaction log: one row per applied redaction, documents in export order, then page and id. */
export function redactionLogCsv(material: ExportMaterial): string {
  const lines = [REDACTION_LOG_COLUMNS.join(',')];
  for (const document of material.documents) {
    const latest = latestDecisionOf(document.decisions);
    const boxes = [...document.applied].sort((a, b) => a.page - b.page || a.rowId - b.rowId);
    for (const box of boxes) {
      const decision = latest.get(box.rowId);
      const row: (string | number | null)[] = [
        String(document.row.id),
        document.row.file_name,
        box.page,
        String(box.rowId),
        box.redactionId,
        box.layer,
        LAYER_INFO[box.layer].exemption,
        box.classificationType,
        box.reason,
        box.kind,
        box.source === 'pdf' ? 'pdf_points' : 'image_pixels',
        box.x1,
        box.y1,
        box.x2,
        box.y2,
        box.points.length > 0 ? JSON.stringify(box.points) : '',
        box.state,
        decision?.decision ?? '',
        decision ? `${decision.actor_type}:${decision.actor_id}` : box.createdBy,
        decision ? decision.created_at : box.createdAt,
        box.createdBy,
        box.createdAt,
      ];
      lines.push(row.map(csvField).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Applied redactions per exemption code, in layer order; only exemptions that occur. */
export function countByExemption(documents: readonly MaterialDocument[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const layer of LAYERS) {
    const count = documents.reduce((sum, document) => sum + document.applied.filter((box) => box.layer === layer).length, 0);
    if (count > 0) counts[LAYER_INFO[layer].exemption] = count;
  }
  return counts;
}

function redactionRecord(box: Box, applied: boolean) {
  return {
    id: String(box.rowId),
    redaction_id: box.redactionId,
    page: box.page,
    layer: box.layer,
    exemption: LAYER_INFO[box.layer].exemption,
    classification_type: box.classificationType,
    kind: box.kind,
    units: box.source === 'pdf' ? 'pdf_points' : 'image_pixels',
    box: { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2 },
    points: box.points,
    reason: box.reason,
    state: box.state,
    applied,
    created_by: box.createdBy,
    created_at: box.createdAt,
    updated_by: box.updatedBy,
    updated_at: box.updatedAt,
  };
}

/**
 * The case record: the case, and per document its redactions (every state in the selected layers, with
 * `applied` saying which count), review decisions, comments and jobs with their results. Suggestion details
 * (`pending_reason`) are left out: a detector may have recorded the very text it found.
 */
export function caseRecord(material: ExportMaterial, generatedAt: string) {
  const appliedIds = new Set(material.documents.flatMap((document) => document.applied.map((box) => box.rowId)));
  return {
    schema_version: CASE_RECORD_SCHEMA_VERSION,
    generated_at: generatedAt,
    export: { id: String(material.row.id), format: material.row.format, filters: material.filters },
    case: toCase(material.caseRow),
    documents: material.documents.map((document) => ({
      ...toDocument(document.row),
      status: document.status,
      deleted_at: document.row.deleted_at,
      redactions: document.redactions.map((box) => redactionRecord(box, appliedIds.has(box.rowId))),
      review_decisions: document.decisions.map((decision) => ({
        id: String(decision.id),
        redaction_id: String(decision.redaction_row_id),
        decision: decision.decision,
        reason: decision.reason,
        decided_by: `${decision.actor_type}:${decision.actor_id}`,
        decided_at: decision.created_at,
      })),
      comments: document.comments.map((comment) => ({
        id: String(comment.id),
        text: comment.text,
        author: { type: comment.author_type, id: comment.author_id },
        created_at: comment.created_at,
      })),
      jobs: document.jobs.map(toJob),
    })),
    skipped_documents: material.skipped,
    totals: {
      documents: material.documents.length,
      redactions: material.documents.reduce((sum, document) => sum + document.redactions.length, 0),
      applied_redactions: appliedIds.size,
      by_exemption: countByExemption(material.documents),
    },
  };
}
