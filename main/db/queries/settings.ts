import type { Executor } from './executor.js';

export async function getSetting(db: Executor, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores the value unless one exists; returns whichever value is stored afterwards. */
export async function putSettingIfAbsent(db: Executor, key: string, value: string): Promise<string> {
  await db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
  return (await getSetting(db, key)) ?? value;
}
