import type { Executor } from '../db/queries/executor.js';
import type { CaseRow, CommentRow, DocumentPageRow, DocumentRow, ExportRow, JobRow, ReviewDecisionRow } from '../db/schema.js';
import { findCase } from '../db/queries/cases.js';
import { listDocumentComments } from '../db/queries/comments.js';
import { listDocumentPages } from '../db/queries/document-pages.js';
import { findDocumentsByIds, listAllCaseDocuments } from '../db/queries/documents.js';
import { listDocumentJobs } from '../db/queries/jobs.js';
import { listDocumentRedactions } from '../db/queries/redactions.js';
import { listLatestDecisions } from '../db/queries/review-decisions.js';
import type { ExportDocumentStatus, ExportOptions, ResolvedExportFilters } from '../common/schemas/exports.js';
import { boxFromRow, type Box } from './redactions/model.js';
import { exportSettingsOf } from './exports.js';
import { gatherReleaseMaterial, type ReleaseMaterial } from './releases/material.js';
import { checkRelease } from './releases/safeguards.js';
import { releaseStateMarks } from '../db/queries/case-approvals.js';

// Everything an export needs, read in one transaction so the files agree with each other.

export interface MaterialDocument {
  row: DocumentRow;
  status: ExportDocumentStatus;
  /** Redactions of the selected layers, every state. */
  redactions: Box[];
  /** Those that apply: accepted, plus pending when the filters ask for them. */
  applied: Box[];
  /** Review decisions of these redactions, oldest first. */
  decisions: ReviewDecisionRow[];
  comments: CommentRow[];
  jobs: JobRow[];
  /** Stored page text (text layer, OCR), for the invisible text layer of burned pages. */
  pages: DocumentPageRow[];
}

export interface SkippedDocument {
  document_id: string;
  file_name: string;
  reason: string;
}

export interface ExportMaterial {
  row: ExportRow;
  filters: ResolvedExportFilters;
  options: ExportOptions | null;
  caseRow: CaseRow;
  documents: MaterialDocument[];
  skipped: SkippedDocument[];
  /** Release exports: settings, withholdings, numbering; internal ones: withholdings and safeguard records too. */
  release: ReleaseMaterial;
}

export class ExportNotPossible extends Error {}

function statusOf(row: DocumentRow): ExportDocumentStatus {
  return row.deleted_at ? 'deleted' : 'active';
}

async function selectDocuments(db: Executor, row: ExportRow, filters: ResolvedExportFilters) {
  const skipped: SkippedDocument[] = [];
  if (!filters.document_ids) {
    const all = await listAllCaseDocuments(db, row.organization_id, row.case_id);
    return { chosen: all.filter((document) => filters.document_statuses.includes(statusOf(document))), skipped };
  }
  const rows = await findDocumentsByIds(db, row.organization_id, filters.document_ids.map(Number));
  const byId = new Map(rows.map((document) => [String(document.id), document]));
  const chosen: DocumentRow[] = [];
  for (const id of filters.document_ids) {
    const document = byId.get(id);
    if (!document || document.case_id !== row.case_id) throw new ExportNotPossible(`document ${id} is no longer in the case`);
    if (!filters.document_statuses.includes(statusOf(document))) {
      skipped.push({ document_id: id, file_name: document.file_name, reason: `the document is ${statusOf(document)} (filters.document_statuses)` });
      continue;
    }
    chosen.push(document);
  }
  return { chosen, skipped };
}

/**
 * A release that passed its safeguards when requested is checked again as processing starts (an overridden
 * one is not, its override stands); any release fails if its boxes or withholdings changed since the request.
 */
async function recheckSafeguards(db: Executor, row: ExportRow, filters: ResolvedExportFilters): Promise<void> {
  if (row.audience !== 'release' || row.safeguards === null) return;
  const record = JSON.parse(row.safeguards) as { outcome?: string; pinned?: { layer_version: number; withholding: number } };
  if (record.outcome === 'passed') {
    const check = await checkRelease(db, { organizationId: row.organization_id, caseId: row.case_id, documentIds: filters.document_ids, layers: filters.layers });
    if (check.blocks.length > 0) throw new ExportNotPossible(`a release safeguard blocks it now: ${check.blocks.map((entry) => `${entry.check} (${entry.message})`).join('; ')}`);
  }
  // The boxes and withholdings are those that were checked (or overridden) when the release was requested.
  if (record.pinned) {
    const documentIds = filters.document_ids?.map(Number) ?? (await listAllCaseDocuments(db, row.organization_id, row.case_id)).map((document) => document.id);
    const now = await releaseStateMarks(db, row.organization_id, row.case_id, documentIds, filters.layers);
    if (now.layer_version > record.pinned.layer_version || now.withholding > record.pinned.withholding) {
      throw new ExportNotPossible('the redactions or withholdings of this release changed after it was requested; request the release again so that what leaves is what was checked');
    }
  }
}

/** Reads the case record of an export. Throws ExportNotPossible when the case no longer allows it. */
export async function gatherExportMaterial(db: Executor, row: ExportRow): Promise<ExportMaterial> {
  const { filters, options } = exportSettingsOf(row);
  const caseRow = await findCase(db, row.organization_id, row.case_id);
  if (!caseRow) throw new ExportNotPossible('the case no longer exists');
  if (!(filters.case_statuses as readonly string[]).includes(caseRow.status)) {
    throw new ExportNotPossible(`the case is ${caseRow.status}; filters.case_statuses allows ${filters.case_statuses.join(', ')}`);
  }
  const { chosen, skipped } = await selectDocuments(db, row, filters);
  await recheckSafeguards(db, row, filters);
  const wantsPages = row.format === 'pdf' || row.format === 'zip';
  const documents: MaterialDocument[] = [];
  for (const document of chosen) {
    const redactions = (await listDocumentRedactions(db, document.id, filters.layers)).filter((redaction) => redaction.organization_id === row.organization_id).map(boxFromRow);
    const applied = redactions.filter((box) => box.state === 'accepted' || (filters.include_pending && box.state === 'pending'));
    documents.push({
      row: document,
      status: statusOf(document),
      redactions,
      applied,
      decisions: await listLatestDecisions(db, redactions.map((box) => box.rowId)),
      comments: await listDocumentComments(db, row.organization_id, document.id),
      jobs: await listDocumentJobs(db, row.organization_id, document.id),
      pages: wantsPages ? await listDocumentPages(db, row.organization_id, document.id) : [],
    });
  }
  return { row, filters, options, caseRow, documents, skipped, release: await gatherReleaseMaterial(db, row) };
}
