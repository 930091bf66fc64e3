import type { Executor } from './executor.js';

export function findCaseReleaseDetails(db: Executor, organizationId: number, caseId: number) {
  return db.selectFrom('case_release_details').selectAll().where('organization_id', '=', organizationId).where('case_id', '=', caseId).executeTakeFirst();
}

export async function putCaseReleaseDetails(
  db: Executor,
  values: { case_id: number; organization_id: number; request_number: string | null; requester_title: string | null; updated_at: string },
): Promise<void> {
  const { case_id: _case, organization_id: _org, ...changes } = values;
  await db
    .insertInto('case_release_details')
    .values(values)
    .onConflict((oc) => oc.column('case_id').doUpdateSet(changes))
    .execute();
}
