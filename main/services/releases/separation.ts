import type { Executor } from '../../db/queries/executor.js';
import { documentsTheActorRedacted } from '../../db/queries/case-participation.js';
import { findLatestApproval, releaseWritesSince, type ReleaseWrite } from '../../db/queries/case-approvals.js';
import { listAllCaseDocuments } from '../../db/queries/documents.js';
import { DomainError } from '../../common/errors.js';
import type { ServiceContext } from '../context.js';
import { releaseSettingsOf } from './settings.js';

// Separation of duties, the one rule (issue 27): whoever approves a case must not have shaped what it
// releases. The permissions the window asks for (services/case-permissions.ts), the workflow's `approve`
// (services/cases.ts, the action and a PATCH to `approved`), the re-approval (reapproveRelease) and the release
// safeguard (checkRelease) all ask this function, so they cannot disagree.
//
// An approver has shaped the release when, among its documents, they drew, last changed or accepted a
// redaction that is accepted now, or when they wrote anything to the case (a layer version — deletions too —,
// a review or suggestion decision, a withholding) after the approval that stood when they approved (ever, for
// a first approval). Asked before approving, that approval is the case's latest; asked at release time, it is
// the one before the approver's own.

export interface ApproverConflict {
  /** Documents in which the actor drew, last changed or accepted a redaction that is accepted now. */
  redacted: number[];
  /** What the actor wrote to the case after `since`. */
  writes: ReleaseWrite[];
  /** The approval the window starts at; null: the case's whole history. */
  since: string | null;
}

export interface ApproverQuery {
  organizationId: number;
  caseId: number;
  /** `type:id` of the (would-be) approver. */
  actor: string;
  /** The documents released; null: every active document of the case. */
  documentIds: readonly number[] | null;
  /** The approval before the one in question; null: none (a first approval). */
  since: string | null;
}

/** What makes `actor` the wrong person to approve; null when nothing does. */
export async function approverConflict(db: Executor, query: ApproverQuery): Promise<ApproverConflict | null> {
  const ids = query.documentIds ?? (await listAllCaseDocuments(db, query.organizationId, query.caseId)).filter((row) => !row.deleted_at).map((row) => row.id);
  const [type = '', id = ''] = splitActor(query.actor);
  const redacted = await documentsTheActorRedacted(db, query.organizationId, query.caseId, type, id, ids);
  const writes = (await releaseWritesSince(db, query.organizationId, query.caseId, ids, query.since)).filter((write) => write.actor === query.actor);
  return redacted.length > 0 || writes.length > 0 ? { redacted, writes, since: query.since } : null;
}

/** The conflict of the caller were they to approve or re-approve the case now (the latest approval opens the window). */
export async function callerApprovalConflict(db: Executor, organizationId: number, caseId: number, actor: string): Promise<ApproverConflict | null> {
  const since = (await findLatestApproval(db, organizationId, caseId))?.created_at ?? null;
  return approverConflict(db, { organizationId, caseId, actor, documentIds: null, since });
}

/**
 * Refuses an approval or re-approval by the caller (409 `conflict`, `details.check: "separation_of_duties"`)
 * when the rule rules them out and the organization's `separation_of_duties` safeguard is on. The message is
 * the `approve`/`reapprove` reason of GET /cases/{id}/permissions, followed by the safeguard's name.
 */
export async function assertCallerMayApprove(db: Executor, ctx: ServiceContext, caseId: number): Promise<void> {
  const settings = await releaseSettingsOf(db, ctx.actor.organizationId);
  if (!settings.safeguards.separation_of_duties) return;
  const conflict = await callerApprovalConflict(db, ctx.actor.organizationId, caseId, `${ctx.actor.type}:${ctx.actor.id}`);
  if (conflict) {
    throw new DomainError('conflict', `${describeConflict(conflict, 'you')} (separation_of_duties)`, {
      check: 'separation_of_duties',
      writes: conflict.writes,
      document_ids: conflict.redacted.map(String),
    });
  }
}

/** The conflict in words, from the approver's side ("you …") or the release's ("the approver … "). */
export function describeConflict(conflict: ApproverConflict, who: 'you' | 'the approver'): string {
  const written = conflict.writes.map((write) => `${write.count} ${write.what.replace('_', ' ')}(s)`).join(', ');
  const parts = [
    conflict.redacted.length > 0 && 'drew or accepted redactions in this case',
    written && `wrote ${written} to it${conflict.since ? ` since the approval on ${conflict.since}` : ''}`,
  ].filter(Boolean);
  return `${who} ${parts.join(' and ')}; another person must approve it`;
}

function splitActor(actor: string): [string, string] {
  const colon = actor.indexOf(':');
  return colon < 0 ? [actor, ''] : [actor.slice(0, colon), actor.slice(colon + 1)];
}
