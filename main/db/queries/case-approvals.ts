import type { Executor } from './executor.js';

// Reads of the audit trail and the layer history that the release safeguards need: who approved a case and
// when, and what changed after that.

/** The newest approval of the case: its move to `approved`, or a re-approval after changes (audit records). */
export function findLatestApproval(db: Executor, organizationId: number, caseId: number) {
  return db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('resource_type', '=', 'case')
    .where('resource_id', '=', String(caseId))
    .where((eb) => eb.or([eb.and([eb('action', '=', 'case.status_change'), eb('details', 'like', '%"to":"approved"%')]), eb('action', '=', 'case.release_reapprove')]))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Documents among `documentIds` with a layer version (any redaction change, deletions too) after `since`. */
export async function documentsChangedSince(db: Executor, documentIds: readonly number[], since: string): Promise<number[]> {
  if (documentIds.length === 0) return [];
  const rows = await db.selectFrom('layer_versions').select('document_id').distinct().where('document_id', 'in', [...documentIds]).where('created_at', '>', since).execute();
  return rows.map((row) => row.document_id);
}

/** Withholdings of the case created or removed after `since` (their audit records). */
export async function withholdingChangesSince(db: Executor, organizationId: number, caseId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('resource_type', '=', 'withholding')
    .where('details', 'like', `%"case_id":"${caseId}"%`)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
