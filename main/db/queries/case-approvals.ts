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

/** The two newest approvals of the case (the latest first): the window of separation of duties starts at the second. */
export function findLatestApprovals(db: Executor, organizationId: number, caseId: number) {
  return db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('resource_type', '=', 'case')
    .where('resource_id', '=', String(caseId))
    .where((eb) => eb.or([eb.and([eb('action', '=', 'case.status_change'), eb('details', 'like', '%"to":"approved"%')]), eb('action', '=', 'case.release_reapprove')]))
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
}

export interface ReleaseWrite {
  /** `type:id` of whoever wrote. */
  actor: string;
  what: 'layer_version' | 'review_decision' | 'withholding';
  count: number;
}

/**
 * Who shaped the selection after `since` (null: ever): layer versions (every box change, deletions too),
 * review and suggestion decisions of its documents, and withholdings of the case (created or removed).
 */
export async function releaseWritesSince(db: Executor, organizationId: number, caseId: number, documentIds: readonly number[], since: string | null): Promise<ReleaseWrite[]> {
  const writes: ReleaseWrite[] = [];
  if (documentIds.length > 0) {
    let versions = db
      .selectFrom('layer_versions')
      .select(['created_by', (eb) => eb.fn.countAll<number>().as('count')])
      .where('organization_id', '=', organizationId)
      .where('document_id', 'in', [...documentIds]);
    if (since !== null) versions = versions.where('created_at', '>', since);
    for (const row of await versions.groupBy('created_by').execute()) writes.push({ actor: row.created_by, what: 'layer_version', count: Number(row.count) });
    let decisions = db
      .selectFrom('review_decisions')
      .select(['actor_type', 'actor_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('organization_id', '=', organizationId)
      .where('document_id', 'in', [...documentIds]);
    if (since !== null) decisions = decisions.where('created_at', '>', since);
    for (const row of await decisions.groupBy(['actor_type', 'actor_id']).execute()) writes.push({ actor: `${row.actor_type}:${row.actor_id}`, what: 'review_decision', count: Number(row.count) });
  }
  let withholdings = db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('organization_id', '=', organizationId)
    .where('resource_type', '=', 'withholding')
    .where('details', 'like', `%"case_id":"${caseId}"%`);
  if (since !== null) withholdings = withholdings.where('created_at', '>', since);
  for (const row of await withholdings.groupBy(['actor_type', 'actor_id']).execute()) writes.push({ actor: `${row.actor_type}:${row.actor_id}`, what: 'withholding', count: Number(row.count) });
  return writes;
}

/** The newest layer version of these documents' layers, and the newest withholding record of the case: a release's pin. */
export async function releaseStateMarks(db: Executor, organizationId: number, caseId: number, documentIds: readonly number[], layers: readonly string[]): Promise<{ layer_version: number; withholding: number }> {
  const version =
    documentIds.length === 0 || layers.length === 0
      ? undefined
      : await db
          .selectFrom('layer_versions')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('organization_id', '=', organizationId)
          .where('document_id', 'in', [...documentIds])
          .where('layer', 'in', [...layers])
          .executeTakeFirst();
  const withholding = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('organization_id', '=', organizationId)
    .where('resource_type', '=', 'withholding')
    .where('details', 'like', `%"case_id":"${caseId}"%`)
    .executeTakeFirst();
  return { layer_version: Number(version?.id ?? 0), withholding: Number(withholding?.id ?? 0) };
}
