import type { Executor } from './executor.js';

export async function findSubfolderCaseId(db: Executor, folderId: number, subfolder: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('watched_folder_cases')
    .select('case_id')
    .where('folder_id', '=', folderId)
    .where('subfolder', '=', subfolder)
    .executeTakeFirst();
  return row?.case_id;
}

export async function setSubfolderCase(db: Executor, folderId: number, subfolder: string, caseId: number): Promise<void> {
  await db
    .insertInto('watched_folder_cases')
    .values({ folder_id: folderId, subfolder, case_id: caseId })
    .onConflict((oc) => oc.columns(['folder_id', 'subfolder']).doUpdateSet({ case_id: caseId }))
    .execute();
}
