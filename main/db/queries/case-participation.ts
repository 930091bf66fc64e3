import type { Executor } from './executor.js';

/**
 * Documents among `documentIds` (of the case) in which the actor drew or last changed a redaction that is
 * accepted now, or accepted one that still is: the participation separation of duties looks at
 * (services/releases/separation.ts).
 */
export async function documentsTheActorRedacted(db: Executor, organizationId: number, caseId: number, actorType: string, actorId: string, documentIds: readonly number[]): Promise<number[]> {
  if (documentIds.length === 0) return [];
  const actor = `${actorType}:${actorId}`;
  const drawn = await db
    .selectFrom('redactions')
    .innerJoin('documents', 'documents.id', 'redactions.document_id')
    .select('redactions.document_id')
    .distinct()
    .where('documents.organization_id', '=', organizationId)
    .where('documents.case_id', '=', caseId)
    .where('redactions.document_id', 'in', [...documentIds])
    .where('redactions.state', '=', 'accepted')
    .where((eb) => eb.or([eb('redactions.created_by', '=', actor), eb('redactions.updated_by', '=', actor)]))
    .execute();
  const accepted = await db
    .selectFrom('review_decisions')
    .innerJoin('documents', 'documents.id', 'review_decisions.document_id')
    .innerJoin('redactions', 'redactions.id', 'review_decisions.redaction_row_id')
    .select('review_decisions.document_id')
    .distinct()
    .where('documents.organization_id', '=', organizationId)
    .where('documents.case_id', '=', caseId)
    .where('review_decisions.document_id', 'in', [...documentIds])
    .where('redactions.state', '=', 'accepted')
    .where('review_decisions.decision', '=', 'accept')
    .where('review_decisions.actor_type', '=', actorType)
    .where('review_decisions.actor_id', '=', actorId)
    .execute();
  return [...new Set([...drawn, ...accepted].map((row) => row.document_id))].sort((a, b) => a - b);
}

/** The newest approval's audit record of the case with its details (the note given with it). */
export function findLatestApprovalRecord(db: Executor, organizationId: number, caseId: number) {
  return db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'created_at', 'details'])
    .where('organization_id', '=', organizationId)
    .where('resource_type', '=', 'case')
    .where('resource_id', '=', String(caseId))
    .where((eb) => eb.or([eb.and([eb('action', '=', 'case.status_change'), eb('details', 'like', '%"to":"approved"%')]), eb('action', '=', 'case.release_reapprove')]))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
