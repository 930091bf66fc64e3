import type { Executor } from '../../db/queries/executor.js';
import type { DocumentRow } from '../../db/schema.js';
import { documentsChangedSince, findLatestApproval, findLatestApprovals, withholdingChangesSince } from '../../db/queries/case-approvals.js';
import { findCase } from '../../db/queries/cases.js';
import { findDocumentsByIds, listAllCaseDocuments } from '../../db/queries/documents.js';
import { findNewestDocumentJob } from '../../db/queries/jobs.js';
import { listDocumentRedactions } from '../../db/queries/redactions.js';
import { LAYERS } from '../../common/redaction-catalog.js';
import { SAFEGUARDS, type ReleaseCheck, type Safeguard, type SafeguardBlock } from '../../common/schemas/releases.js';
import { DomainError } from '../../common/errors.js';
import { requireCase } from '../cases.js';
import { recordChange } from '../change-log.js';
import type { ServiceContext } from '../context.js';
import { approverConflict, assertCallerMayApprove, describeConflict } from './separation.js';
import { releaseSettingsOf } from './settings.js';

// The checks before a release leaves: each enabled safeguard that fails is one block with what it concerns.

export interface ReleaseSelection {
  organizationId: number;
  caseId: number;
  /** null: every active document of the case. */
  documentIds: readonly string[] | null;
  layers?: readonly string[];
}

const PROCESSING_KINDS = ['scan', 'ocr', 'detection'] as const;

async function selectedDocuments(db: Executor, selection: ReleaseSelection): Promise<DocumentRow[]> {
  if (selection.documentIds === null) return (await listAllCaseDocuments(db, selection.organizationId, selection.caseId)).filter((row) => !row.deleted_at);
  const rows = await findDocumentsByIds(db, selection.organizationId, selection.documentIds.map(Number));
  return rows.filter((row) => row.case_id === selection.caseId);
}

function block(check: Safeguard, message: string, documentIds: number[], count = documentIds.length): SafeguardBlock {
  return { check, message, document_ids: documentIds.map(String), count };
}

/** Runs every enabled safeguard against the case as it is now. */
export async function checkRelease(db: Executor, selection: ReleaseSelection): Promise<ReleaseCheck> {
  const settings = await releaseSettingsOf(db, selection.organizationId);
  const enabled = settings.safeguards;
  const caseRow = await findCase(db, selection.organizationId, selection.caseId);
  const documents = await selectedDocuments(db, selection);
  const ids = documents.map((row) => row.id);
  const layers = selection.layers ?? LAYERS;
  const blocks: SafeguardBlock[] = [];
  const redactions = new Map<number, Awaited<ReturnType<typeof listDocumentRedactions>>>();
  for (const id of ids) redactions.set(id, await listDocumentRedactions(db, id, layers));

  if (enabled.pending_suggestions) {
    const pending = ids.flatMap((id) => (redactions.get(id) ?? []).filter((row) => row.state === 'pending').map(() => id));
    if (pending.length > 0) blocks.push(block('pending_suggestions', `${pending.length} suggestion(s) await a decision; accept or reject them first`, [...new Set(pending)], pending.length));
  }
  if (enabled.unprocessed_documents) {
    const unfinished: number[] = [];
    const failed: number[] = [];
    for (const id of ids) {
      for (const kind of PROCESSING_KINDS) {
        const job = await findNewestDocumentJob(db, selection.organizationId, id, kind);
        if (job?.status === 'failed') failed.push(id);
        else if (job && job.status !== 'completed') unfinished.push(id);
      }
    }
    const all = [...new Set([...unfinished, ...failed])];
    if (all.length > 0) {
      const parts = [unfinished.length > 0 && `${new Set(unfinished).size} still processing`, failed.length > 0 && `${new Set(failed).size} whose scan, OCR or detection failed`].filter(Boolean);
      blocks.push(block('unprocessed_documents', `documents not fully processed: ${parts.join(', ')}`, all));
    }
  }
  const approval = await findLatestApproval(db, selection.organizationId, selection.caseId);
  const approved = caseRow?.status === 'approved' && approval !== undefined;
  if (enabled.case_approved && !approved) {
    blocks.push(block('case_approved', `the case is ${caseRow?.status ?? 'missing'}; a release needs an approved case`, []));
  }
  if (approved && approval) {
    const approver = `${approval.actor_type}:${approval.actor_id}`;
    if (enabled.separation_of_duties) {
      // The window of the approver's writes opens at the approval that stood when they approved (separation.ts).
      const since = (await findLatestApprovals(db, selection.organizationId, selection.caseId))[1]?.created_at ?? null;
      const conflict = await approverConflict(db, { organizationId: selection.organizationId, caseId: selection.caseId, actor: approver, documentIds: ids, since });
      if (conflict) blocks.push(block('separation_of_duties', describeConflict(conflict, 'the approver'), conflict.redacted.length > 0 ? conflict.redacted : ids));
    }
    if (enabled.changed_after_approval) {
      const changed = await documentsChangedSince(db, ids, approval.created_at);
      const withholdings = await withholdingChangesSince(db, selection.organizationId, selection.caseId, approval.created_at);
      if (changed.length > 0 || withholdings > 0) {
        const what = [changed.length > 0 && `redactions of ${changed.length} document(s)`, withholdings > 0 && `${withholdings} withholding change(s)`].filter(Boolean).join(' and ');
        blocks.push(block('changed_after_approval', `${what} changed after the approval on ${approval.created_at}; the review is reopened: someone who did not make the changes re-approves the case as it stands`, changed, changed.length + withholdings));
      }
    }
  }
  const failing = new Set(blocks.map((entry) => entry.check));
  return {
    case_id: String(selection.caseId),
    ready: blocks.length === 0,
    checks: SAFEGUARDS.map((check) => ({ check, enabled: enabled[check], passed: !failing.has(check) })),
    blocks,
  };
}

/**
 * Re-approval of an approved case whose redactions or withholdings changed after its approval (the case
 * workflow has no way back from approved): the caller approves the case as it stands now. Separation of
 * duties then applies to this approver (separation.ts). The optional note is kept with the record, like an
 * approval's.
 */
export async function reapproveRelease(db: Executor, ctx: ServiceContext, caseId: number, note?: string): Promise<ReleaseCheck> {
  const caseRow = await requireCase(db, ctx, caseId);
  if (caseRow.status !== 'approved') {
    throw new DomainError('conflict', `the case is ${caseRow.status}; only an approved case is re-approved (approve it through the case workflow)`, { status: caseRow.status });
  }
  const since = (await findLatestApproval(db, ctx.actor.organizationId, caseId))?.created_at ?? null;
  await assertCallerMayApprove(db, ctx, caseId);
  await recordChange(db, ctx, { action: 'case.release_reapprove', resourceType: 'case', resourceId: caseId, details: { case_id: String(caseId), previous_approval_at: since, ...(note !== undefined && { note }) } });
  return checkRelease(db, { organizationId: ctx.actor.organizationId, caseId, documentIds: null });
}
